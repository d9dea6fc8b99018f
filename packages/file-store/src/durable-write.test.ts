import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/cleanup.js';
import { removeIfPossible, writeDurably } from './durable-write.js';

describe('durable writes after a failure', () => {
  it("a write that fails throws the file system's own error, not the cleanup's", async () => {
    const root = tempDir();
    writeFileSync(join(root, 'list'), 'a file where a folder should be');
    let thrown: NodeJS.ErrnoException | undefined;
    try {
      await writeDurably(join(root, 'list', 'task.json'), Buffer.from('{}'));
    } catch (error) {
      thrown = error as NodeJS.ErrnoException;
    }
    expect(thrown?.code).toBe('ENOTDIR');
    // The open's failure, not the removal's that follows it (which fails the same way).
    expect(thrown?.syscall).toBe('open');
  });

  it('removeIfPossible removes a file, and says nothing when it cannot', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'left.tmp'), 'x');
    await removeIfPossible(join(root, 'left.tmp'));
    expect(existsSync(join(root, 'left.tmp'))).toBe(false);
    writeFileSync(join(root, 'file'), 'x');
    await expect(removeIfPossible(join(root, 'file', 'below.tmp'))).resolves.toBeUndefined();
  });
});
