/**
 * A holder's reads of its list folder, which take no lock: the whole list (a first call, a
 * reload), and what changed after a sequence number: the ids the change feed names, the task files
 * the folder's watch saw change (another writer: Claude Code itself, a teammate), and, under the
 * lock, tasks created beyond the highest id known. Each task named is read again from its file.
 * Each read changes what the holder knows as it goes: run one at a time (the holder's queue).
 */
import { join } from 'node:path';
import type { TaskDelta, TaskListSnapshot, TaskRecord } from '@raider/todo-tools';
import type { ChangeJournal } from './change-journal.js';
import { disk, exists } from './disk.js';
import { codeOf, isDeadTemporary } from './durable-write.js';
import { ListFileError } from './errors.js';
import type { FolderWatch } from './folder-watch.js';
import type { HighWaterMarkFile } from './high-water-mark.js';
import type { Fetched, KnownTaskFiles } from './known-task-files.js';
import { signatureOf } from './regular-file.js';
import { MAX_TASK_ID, taskIdOf } from './task-file.js';

/** The reads of one holder of a list folder. */
export class TaskFolderReads {
  /**
   * @param folder the list folder
   * @param journal its change feed
   * @param folderWatch its watch (started by the first read)
   * @param known what this holder knows of the task files (replaced by a whole read, updated by a delta)
   * @param mark its high-water mark file
   * @param report told (by path) of a file that cannot be read or whose id is beyond the highest
   */
  constructor(
    private readonly folder: string,
    private readonly journal: ChangeJournal,
    private readonly folderWatch: FolderWatch,
    private readonly known: KnownTaskFiles,
    private readonly mark: HighWaterMarkFile,
    private readonly report: (message: string) => void,
  ) {}

  /**
   * The high-water mark as this holder knows it: the file's (read again when `fresh`), the feed's,
   * the highest id seen.
   */
  async highWaterMark(fresh = false): Promise<number> {
    return Math.max(await this.mark.read(fresh), this.journal.highWaterMark, this.known.highestId);
  }

  /**
   * The whole list, read from the folder, and the feed's sequence number it is current at. A
   * missing folder is an empty list; a temporary file a killed raider left is removed on the way.
   * @throws ListFileError when the folder or the feed exists and cannot be read.
   */
  async loadAll(): Promise<TaskListSnapshot> {
    await this.refreshJournal();
    const seq = this.journal.seq;
    this.folderWatch.start();
    let names: string[];
    try {
      names = await disk.readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ListFileError(`${this.folder}: cannot be read (${codeOf(error)})`);
      }
      names = [];
    }
    this.folderWatch.dirty.clear();
    this.folderWatch.rescan = false;
    this.known.clear();
    // The task files read a few at a time, then every name taken in the folder's order, as one by one.
    const ids = names.map(taskIdOf).filter((id) => id !== undefined);
    const fetched = await this.known.fetchEach(ids);
    const tasks: TaskRecord[] = [];
    let next = 0;
    for (const name of names) {
      const id = taskIdOf(name);
      if (id) {
        const record = this.known.record(id, fetched[next++] as Fetched);
        if (record) tasks.push(record);
      } else await this.passBy(name);
    }
    tasks.sort((a, b) => Number(a.id) - Number(b.id));
    this.folderWatch.highWaterMarkDirty = true;
    return { tasks, highWaterMark: await this.highWaterMark(), seq };
  }

  /**
   * What changed after `seq`: the ids the journal names, the task files a watch saw change (other
   * writers; all that differ from what this holder knows when the watch began late), and, when
   * `underLock`, tasks created beyond the highest id known (the mark read fresh). Undefined when
   * the journal does not reach back to `seq`.
   * @throws ListFileError when the feed cannot be read.
   */
  async deltaSince(seq: number, underLock: boolean): Promise<TaskDelta | undefined> {
    await this.refreshJournal();
    const fromJournal = this.journal.since(seq);
    if (!fromJournal) return undefined;
    // A folder that did not exist at the first look is watched once it does.
    this.folderWatch.start();
    const ids = fromJournal.ids;
    if (this.folderWatch.rescan) for (const id of await this.listedElsewhere()) ids.add(id);
    for (const id of await this.changedElsewhere()) ids.add(id);
    if (underLock) for (const id of await this.createdElsewhere()) ids.add(id);
    const put: TaskRecord[] = [];
    const removed: string[] = [];
    const named = [...ids];
    const records = await this.known.readEach(named);
    for (const [index, id] of named.entries()) {
      const record = records[index];
      if (record) put.push(record);
      else removed.push(id);
    }
    // Under the lock the mark was read fresh just now (createdElsewhere): one read of the file a call.
    return { seq: this.journal.seq, put, removed, highWaterMark: await this.highWaterMark() };
  }

  /**
   * A name of a whole read that is not a task's file: a task file whose id is beyond the highest
   * is reported, and a dead raider's temporary removed; every other file is passed by.
   */
  private async passBy(name: string): Promise<void> {
    if (/^[1-9][0-9]*\.json$/.test(name)) {
      this.report(
        `${join(this.folder, name)}: its id is beyond ${MAX_TASK_ID}, the highest id a list hands out; left as it is, and out of the list`,
      );
      return;
    }
    // A temporary file a killed raider left: removed once its process is gone. Claude Code's
    // (`<id>.json.tmp.<8 hex>`) name no process, so they are never touched: one may be a live
    // writer's, about to be renamed in.
    if (isDeadTemporary(name)) await disk.remove(join(this.folder, name));
  }

  private async refreshJournal(): Promise<void> {
    try {
      await this.journal.refresh();
    } catch (error) {
      throw new ListFileError(`${this.journal.path}: cannot be read (${codeOf(error)})`);
    }
  }

  /**
   * The ids of the task files that differ from what this holder knows, found by listing the folder
   * (those that appeared, changed or vanished): when the watch began after the folder appeared, or
   * again after an error, what happened before is in no event.
   */
  private async listedElsewhere(): Promise<string[]> {
    this.folderWatch.rescan = false;
    let names: string[];
    try {
      names = await disk.readdir(this.folder);
    } catch {
      names = [];
    }
    const ids: string[] = [];
    const listed = new Set<string>();
    for (const name of names) {
      const id = taskIdOf(name);
      if (!id) continue;
      listed.add(name);
      let signature: string | undefined;
      try {
        signature = signatureOf(await disk.lstat(join(this.folder, name)));
      } catch {
        signature = undefined;
      }
      if (signature !== this.known.get(name)?.signature) ids.push(id);
    }
    for (const name of this.known.names()) if (!listed.has(name)) ids.push(taskIdOf(name) as string);
    return ids;
  }

  /** The ids of the task files the watch saw change that this holder did not write (as it last saw them). */
  private async changedElsewhere(): Promise<string[]> {
    const ids: string[] = [];
    for (const name of this.folderWatch.dirty) {
      this.folderWatch.dirty.delete(name);
      let signature: string | undefined;
      try {
        signature = signatureOf(await disk.stat(join(this.folder, name)));
      } catch {
        signature = undefined;
      }
      if (signature !== this.known.get(name)?.signature) ids.push(taskIdOf(name) as string);
    }
    return ids;
  }

  /**
   * Tasks created beyond the highest id known (by Claude Code, or another writer without the
   * journal, under this same lock): a new id must be above them. Usually one failed stat.
   */
  private async createdElsewhere(): Promise<string[]> {
    const ids: string[] = [];
    for (
      let next = Math.max(this.known.highestId, await this.mark.read(true)) + 1;
      next <= MAX_TASK_ID && (await exists(join(this.folder, `${next}.json`)));
      next += 1
    ) {
      ids.push(String(next));
    }
    return ids;
  }
}
