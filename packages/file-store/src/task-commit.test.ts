import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { ListLock } from './list-lock.js';
import { TaskCommit } from './task-commit.js';
import { formatTaskFile } from './task-file.js';

/** A commit of a fresh list folder; `commit` runs it under the list lock, as the task store does. */
function commitOf() {
  const folder = join(tempDir(), 'list');
  mkdirSync(folder);
  const lock = new ListLock(folder, 10_000);
  const journal = new ChangeJournal(join(folder, FOLDER_FILES.journal), 100);
  const folderWatch = new FolderWatch(folder, false);
  const known = new KnownTaskFiles(folder, 32, () => {});
  const mark = new HighWaterMarkFile(folder, folderWatch, () => {});
  const commits = new TaskCommit(folder, lock, journal, folderWatch, known, mark);
  const commit = (put: TaskRecord[], removed: string[] = [], highWaterMark = 0) =>
    lock.run(async (locks) => {
      await journal.refresh();
      return commits.commit({ put, removed, highWaterMark }, locks);
    });
  const text = (name: string) => readFileSync(join(folder, name), 'utf8');
  return { folder, journal, folderWatch, known, commit, text };
}

describe('TaskCommit', () => {
  it('writes a new task as Claude Code does, one journal line, and knows the file as its own', async () => {
    const { folder, journal, known, commit, text } = commitOf();
    await commit([taskRecord('1')], [], 1);
    expect(text('1.json')).toBe(formatTaskFile(taskRecord('1')));
    expect(journal.seq).toBe(1);
    expect(text(FOLDER_FILES.journal)).toBe('{"seq":1,"put":["1"],"removed":[],"highWaterMark":1}\n');
    expect(known.has('1.json')).toBe(true);
    expect(known.highestId).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(['.lock', FOLDER_FILES.journal, '1.json'].sort());
  });

  it('keeps the high-water mark in its file once the highest task is removed, and not before', async () => {
    const { folder, commit, text } = commitOf();
    await commit([taskRecord('1'), taskRecord('2')], [], 2);
    await commit([], ['1'], 2);
    expect(existsSync(join(folder, FOLDER_FILES.highWaterMark))).toBe(false);
    await commit([], ['2'], 2);
    expect(text(FOLDER_FILES.highWaterMark)).toBe('2');
    expect(readdirSync(folder).filter((name) => name.endsWith('.json'))).toEqual([]);
  });

  it('refuses to write over a task file another writer changed since it was read: nothing changed, the file to be read again', async () => {
    const { folder, folderWatch, commit, text } = commitOf();
    await commit([taskRecord('1')], [], 1);
    writeFileSync(join(folder, '1.json'), formatTaskFile(taskRecord('1', { subject: 'Theirs' })));
    await expect(commit([taskRecord('1', { subject: 'Ours' })], [], 1)).rejects.toThrow(
      `${join(folder, '1.json')}: was changed by another writer while this change was being made (Claude Code updates a task under that task's lock alone); nothing was changed: read the task again before changing it`,
    );
    expect(JSON.parse(text('1.json')).subject).toBe('Theirs');
    expect(folderWatch.dirty.has('1.json')).toBe(true);
  });

  it('refuses to write back a task another writer deleted, and removes one gone already without a word', async () => {
    const { folder, commit, journal } = commitOf();
    await commit([taskRecord('1'), taskRecord('2')], [], 2);
    rmSync(join(folder, '1.json'));
    await expect(commit([taskRecord('1', { subject: 'Back' })], [], 2)).rejects.toThrow(
      /1\.json: was deleted by another writer/,
    );
    expect(existsSync(join(folder, '1.json'))).toBe(false);
    rmSync(join(folder, '2.json'));
    await commit([], ['2'], 2);
    expect(journal.seq).toBe(2);
  });

  it('takes no file back and leaves no temporary when the write is refused', async () => {
    const { folder, commit } = commitOf();
    writeFileSync(join(folder, '1.json'), 'not ours');
    await expect(commit([taskRecord('1')], [], 1)).rejects.toThrow(/1\.json: exists already/);
    expect(readdirSync(folder).sort()).toEqual(['.lock', '1.json']);
  });
});
