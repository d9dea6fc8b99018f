import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/cleanup.js';
import { CommitSteps, type PreparedFile } from './commit-steps.js';
import { temporaryPath } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';

/** A folder and a file of it prepared under a temporary name, as a commit prepares one. */
function prepared(folder: string, name: string, text: string, fresh: boolean): PreparedFile {
  const temporary = temporaryPath(join(folder, name));
  writeFileSync(temporary, text);
  return { temporary, name, signature: '', keys: 0, fresh };
}

const lockLost = () => Object.assign(new ListFileError('/lists/a: the list lock was lost'), { lockLost: true });
const saved = (error: ListFileError) => (error as { mayHaveBeenSaved?: boolean }).mayHaveBeenSaved;

describe('CommitSteps', () => {
  it('links a new file in, and takes it back when the commit fails later', async () => {
    const folder = tempDir();
    const steps = new CommitSteps(folder, new Set());
    await steps.put(prepared(folder, '1.json', 'one', true));
    expect(readFileSync(join(folder, '1.json'), 'utf8')).toBe('one');
    expect(steps.visible).toBe(true);
    const failure = await steps.failure(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    expect(failure.message).toBe(`${folder}: could not be saved (ENOSPC); nothing was changed`);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('never links a new file over one that exists', async () => {
    const folder = tempDir();
    writeFileSync(join(folder, '1.json'), 'theirs');
    const steps = new CommitSteps(folder, new Set());
    await expect(steps.put(prepared(folder, '1.json', 'ours', true))).rejects.toThrow(
      `${join(folder, '1.json')}: exists already, though this list's lock was held for the create (another process wrote it without the lock); nothing was changed`,
    );
    expect(readFileSync(join(folder, '1.json'), 'utf8')).toBe('theirs');
    expect(steps.visible).toBe(false);
  });

  it('keeps the previous version of a file replaced or removed until the commit is whole, and puts it back on failure', async () => {
    const folder = tempDir();
    writeFileSync(join(folder, '1.json'), 'old one');
    writeFileSync(join(folder, '2.json'), 'old two');
    const steps = new CommitSteps(folder, new Set());
    await steps.put(prepared(folder, '1.json', 'new one', false));
    await steps.remove('2.json');
    expect(readFileSync(join(folder, '1.json'), 'utf8')).toBe('new one');
    expect(existsSync(join(folder, '2.json'))).toBe(false);
    await steps.failure(new Error('later step'));
    await steps.dropBackups();
    expect(readFileSync(join(folder, '1.json'), 'utf8')).toBe('old one');
    expect(readFileSync(join(folder, '2.json'), 'utf8')).toBe('old two');
    expect(readdirSync(folder).sort()).toEqual(['1.json', '2.json']);
  });

  it('drops the previous versions once the commit is whole', async () => {
    const folder = tempDir();
    writeFileSync(join(folder, '1.json'), 'old');
    const steps = new CommitSteps(folder, new Set());
    await steps.put(prepared(folder, '1.json', 'new', false));
    await steps.dropBackups();
    expect(readdirSync(folder)).toEqual(['1.json']);
  });

  it('refuses to write back a task deleted meanwhile, and marks it to be read again; a missing mark is made', async () => {
    const folder = tempDir();
    const dirty = new Set<string>();
    const steps = new CommitSteps(folder, dirty);
    await expect(steps.put(prepared(folder, '4.json', 'four', false))).rejects.toThrow(
      /4\.json: was deleted by another writer/,
    );
    expect(dirty).toEqual(new Set(['4.json']));
    await steps.put(prepared(folder, FOLDER_FILES.highWaterMark, '4', false));
    expect(readFileSync(join(folder, FOLDER_FILES.highWaterMark), 'utf8')).toBe('4');
  });

  it('says nothing was changed for a lock lost before a step was visible, and may have been saved after', async () => {
    const folder = tempDir();
    const before = await new CommitSteps(folder, new Set()).failure(lockLost());
    expect(before.message).toBe('/lists/a: the list lock was lost; nothing was changed');
    expect(saved(before)).toBeUndefined();
    const steps = new CommitSteps(folder, new Set());
    steps.made(async () => {});
    const after = await steps.failure(lockLost());
    expect(after.message).toBe('/lists/a: the list lock was lost; it may have been saved, in part or whole');
    expect(saved(after)).toBe(true);
  });

  it("answers the store's own refusal as it is before a step was visible, and when a step cannot be taken back, may have been saved", async () => {
    const folder = tempDir();
    const own = new ListFileError('/lists/a/1.json: exists already');
    expect(await new CommitSteps(folder, new Set()).failure(own)).toBe(own);
    const steps = new CommitSteps(folder, new Set());
    steps.made(async () => {
      throw new Error('cannot');
    });
    const failure = await steps.failure(own);
    expect(failure.message).toBe(`${folder}: the change was made in part and could not be taken back (another writer)`);
    expect(saved(failure)).toBe(true);
  });
});
