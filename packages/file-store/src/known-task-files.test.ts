import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/cleanup.js';
import { taskRecord } from '../test/task-record.js';
import { KnownTaskFiles } from './known-task-files.js';
import { formatTaskFile, keysOf } from './task-file.js';

function knownOf() {
  const folder = tempDir();
  const reports: string[] = [];
  const known = new KnownTaskFiles(folder, 32, (message) => reports.push(message));
  return { folder, known, reports };
}

describe('KnownTaskFiles', () => {
  it('reads a task file and remembers its version and keys; the highest id rises', async () => {
    const { folder, known } = knownOf();
    const record = taskRecord('4', { owner: 'alice' });
    writeFileSync(join(folder, '4.json'), formatTaskFile(record));
    expect(await known.read('4')).toEqual(record);
    expect(known.has('4.json')).toBe(true);
    expect(known.get('4.json')?.keys).toBe(keysOf(record));
    expect(known.get('4.json')?.signature).toMatch(/^\d+:\d+:[\d.]+$/);
    expect([...known.names()]).toEqual(['4.json']);
    expect(known.highestId).toBe(4);
  });

  it('forgets a file that is gone, and still counts its id as seen', async () => {
    const { folder, known } = knownOf();
    writeFileSync(join(folder, '2.json'), formatTaskFile(taskRecord('2')));
    await known.read('2');
    known.set('9.json', { signature: 'x', keys: 0 });
    expect(await known.read('9')).toBeUndefined();
    expect(known.has('9.json')).toBe(false);
    expect(known.highestId).toBe(9);
  });

  it('keeps a file that is not a task record out of the list, reported, but known so its next change is seen', async () => {
    const { folder, known, reports } = knownOf();
    writeFileSync(join(folder, '3.json'), '{ not json');
    expect(await known.read('3')).toBeUndefined();
    expect(known.has('3.json')).toBe(true);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(new RegExp(`^${join(folder, '3.json')}: .+; left as it is, and out of the list$`));
  });

  it('reports a task file that cannot be read (a symbolic link) and forgets it', async () => {
    const { folder, known, reports } = knownOf();
    mkdirSync(join(folder, 'elsewhere'));
    writeFileSync(join(folder, 'elsewhere', 'task.json'), formatTaskFile(taskRecord('5')));
    symlinkSync(join(folder, 'elsewhere', 'task.json'), join(folder, '5.json'));
    expect(await known.read('5')).toBeUndefined();
    expect(known.has('5.json')).toBe(false);
    expect(reports).toEqual([
      `${join(folder, '5.json')}: ${join(folder, '5.json')}: is a symbolic link; a list file must be a regular file; left as it is`,
    ]);
  });

  it('clear forgets every file but not the highest id', async () => {
    const { known } = knownOf();
    await known.read('6');
    known.set('6.json', { signature: 's', keys: 0 });
    known.clear();
    expect(known.has('6.json')).toBe(false);
    expect(known.highestId).toBe(6);
  });
});
