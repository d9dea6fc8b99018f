import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskRecord } from '@raider/todo-tools';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/cleanup.js';
import { taskRecord } from '../test/task-record.js';
import { ChangeJournal } from './change-journal.js';
import { FOLDER_FILES } from './folder-files.js';
import { FolderWatch } from './folder-watch.js';
import { HighWaterMarkFile } from './high-water-mark.js';
import { KnownTaskFiles } from './known-task-files.js';
import { formatTaskFile, MAX_TASK_ID } from './task-file.js';
import { TaskFolderReads } from './task-folder-reads.js';

/** The reads of a list folder (made, or `missing`), its watch off so that nothing runs behind the test. */
function readsOf({ missing = false } = {}) {
  const folder = join(tempDir(), 'list');
  if (!missing) mkdirSync(folder);
  const reports: string[] = [];
  const report = (message: string) => reports.push(message);
  const journal = new ChangeJournal(join(folder, FOLDER_FILES.journal), 100);
  const folderWatch = new FolderWatch(folder, false);
  const known = new KnownTaskFiles(folder, 32, report);
  const mark = new HighWaterMarkFile(folder, folderWatch, report);
  const reads = new TaskFolderReads(folder, journal, folderWatch, known, mark, report);
  const put = (record: TaskRecord) => writeFileSync(join(folder, `${record.id}.json`), formatTaskFile(record));
  return { folder, journal, folderWatch, known, reads, reports, put };
}

describe('TaskFolderReads', () => {
  it('reads a missing folder as an empty list', async () => {
    const { reads } = readsOf({ missing: true });
    expect(await reads.loadAll()).toEqual({ tasks: [], highWaterMark: 0, seq: 0 });
  });

  it('reads the whole list in id order, its mark the highest of the file, the feed and the ids', async () => {
    const { reads, put, folder } = readsOf();
    for (const id of ['10', '2', '7']) put(taskRecord(id));
    writeFileSync(join(folder, FOLDER_FILES.highWaterMark), '8');
    const snapshot = await reads.loadAll();
    expect(snapshot.tasks.map((record) => record.id)).toEqual(['2', '7', '10']);
    expect(snapshot.highWaterMark).toBe(10);
    expect(await reads.highWaterMark()).toBe(10);
  });

  it('reports a task file whose id is beyond the highest, and removes a dead raider temporary only', async () => {
    const { reads, folder, reports } = readsOf();
    const beyond = `${MAX_TASK_ID + 2}.json`;
    writeFileSync(join(folder, beyond), '{}');
    const dead = '.3.json.2147483646.1.tmp';
    const claudes = '3.json.tmp.0123abcd';
    writeFileSync(join(folder, dead), '{}');
    writeFileSync(join(folder, claudes), '{}');
    expect((await reads.loadAll()).tasks).toEqual([]);
    expect(reports).toEqual([
      `${join(folder, beyond)}: its id is beyond ${MAX_TASK_ID}, the highest id a list hands out; left as it is, and out of the list`,
    ]);
    expect(existsSync(join(folder, dead))).toBe(false);
    expect(existsSync(join(folder, claudes))).toBe(true);
  });

  it('answers no delta when the feed does not reach back, and an empty one when nothing changed', async () => {
    const { reads } = readsOf();
    await reads.loadAll();
    expect(await reads.deltaSince(5, false)).toBeUndefined();
    expect(await reads.deltaSince(0, false)).toEqual({ seq: 0, put: [], removed: [], highWaterMark: 0 });
  });

  it('reads the ids the feed names since the sequence, as their files are now', async () => {
    const { reads, journal, put } = readsOf();
    await reads.loadAll();
    put(taskRecord('1'));
    await journal.append({ seq: 1, put: ['1', '2'], removed: [], highWaterMark: 2 });
    const delta = await reads.deltaSince(0, false);
    expect(delta?.seq).toBe(1);
    expect(delta?.put.map((record) => record.id)).toEqual(['1']);
    expect(delta?.removed).toEqual(['2']);
    expect(delta?.highWaterMark).toBe(2);
  });

  it('reads the files the watch saw another writer change, and not one it knows as it is', async () => {
    const { reads, put, folderWatch } = readsOf();
    put(taskRecord('1'));
    put(taskRecord('2'));
    await reads.loadAll();
    put({ ...taskRecord('2'), subject: 'Changed elsewhere' });
    folderWatch.dirty.add('1.json');
    folderWatch.dirty.add('2.json');
    const delta = await reads.deltaSince(0, false);
    expect(delta?.put.map((record) => record.subject)).toEqual(['Changed elsewhere']);
    expect(folderWatch.dirty.size).toBe(0);
  });

  it('lists the folder again when the watch lost events: a file gone is removed, one made is put', async () => {
    const { reads, put, folder, folderWatch } = readsOf();
    put(taskRecord('1'));
    await reads.loadAll();
    rmSync(join(folder, '1.json'));
    put(taskRecord('2'));
    folderWatch.rescan = true;
    const delta = await reads.deltaSince(0, false);
    expect(delta?.put.map((record) => record.id)).toEqual(['2']);
    expect(delta?.removed).toEqual(['1']);
    expect(folderWatch.rescan).toBe(false);
  });

  it('finds, under the lock only, the tasks created beyond the highest id known', async () => {
    const { reads, put } = readsOf();
    put(taskRecord('1'));
    await reads.loadAll();
    put(taskRecord('2'));
    put(taskRecord('3'));
    expect((await reads.deltaSince(0, false))?.put).toEqual([]);
    const delta = await reads.deltaSince(0, true);
    expect(delta?.put.map((record) => record.id)).toEqual(['2', '3']);
    expect(delta?.highWaterMark).toBe(3);
  });
});
