import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/cleanup.js';
import { nextMessageId } from './last-message-id.js';

describe('nextMessageId', () => {
  it('is at least the time in ms times 1 000, and recorded in .last-id as 16 digits and a newline', async () => {
    const root = tempDir();
    const before = Date.now() * 1000;
    const id = await nextMessageId(root, []);
    expect(id).toBeGreaterThanOrEqual(before);
    expect(readFileSync(join(root, '.last-id'), 'utf8')).toBe(`${String(id).padStart(16, '0')}\n`);
  });

  it('is above the last id handed out and above the inbox highest, whatever the clock says', async () => {
    const root = tempDir();
    const ahead = (Date.now() + 60_000) * 1000;
    writeFileSync(join(root, '.last-id'), `${ahead}\n`);
    expect(await nextMessageId(root, [])).toBe(ahead + 1);
    expect(await nextMessageId(root, [{ id: ahead + 10, name: `${ahead + 10}.json` }])).toBe(ahead + 11);
    expect(await nextMessageId(root, [])).toBe(ahead + 12);
  });

  it('reads a file that holds no id as none, and cuts a longer one to its one line', async () => {
    const root = tempDir();
    writeFileSync(join(root, '.last-id'), `garbage${' '.repeat(40)}\n`);
    const id = await nextMessageId(root, []);
    expect(readFileSync(join(root, '.last-id'), 'utf8')).toBe(`${String(id).padStart(16, '0')}\n`);
  });

  it('refuses when the ids have run out: nothing was sent', async () => {
    const root = tempDir();
    const path = join(root, '.last-id');
    writeFileSync(path, `${Number.MAX_SAFE_INTEGER}\n`);
    await expect(nextMessageId(root, [])).rejects.toThrow(
      `${path}: the ids have run out (${Number.MAX_SAFE_INTEGER + 1}); nothing was sent`,
    );
  });

  it('refuses when the folder is missing: nothing was sent', async () => {
    const root = join(tempDir(), 'missing');
    await expect(nextMessageId(root, [])).rejects.toThrow(`${join(root, '.last-id')}: ENOENT; nothing was sent`);
  });
});
