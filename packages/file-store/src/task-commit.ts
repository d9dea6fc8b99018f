/**
 * The task store's commit, made under the list lock: the lock of every existing task file a write
 * replaces or removes taken as Claude Code takes it (its fencing), each file checked under it to be
 * the version this holder read; the files written whole under temporary names; then the visible
 * steps (commit-steps.ts), each checked against the fences first, the journal line, one fsync of
 * the folder, and a last check of every lock before the call may answer. What the holder knows is
 * read and changed in its queue (`exclusive`), as the synchronous code ran it: no read of the same
 * holder runs between a commit's check of a file and its record of what it wrote.
 */
import { join } from 'node:path';
import type { TaskWrite } from '@raider/todo-tools';
import { vanished } from './change-errors.js';
import type { ChangeJournal } from './change-journal.js';
import { CommitSteps, type PreparedFile } from './commit-steps.js';
import { disk, exists } from './disk.js';
import { codeOf, syncFolder, temporaryPath, writeDurably } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';
import type { FolderWatch } from './folder-watch.js';
import type { HighWaterMarkFile } from './high-water-mark.js';
import type { KnownTaskFiles } from './known-task-files.js';
import type { ListLock, LockFence, TransactionLocks } from './list-lock.js';
import { type OneAtATime, oneAtATime } from './one-at-a-time.js';
import { signatureOf } from './regular-file.js';
import { formatTaskFile, keysOf } from './task-file.js';

/** The commits of one holder of a list folder. */
export class TaskCommit {
  /**
   * @param folder the list folder
   * @param lock its lock, whose task locks a commit takes
   * @param journal its change feed, which gets one line per commit
   * @param folderWatch its watch (a file found changed elsewhere is marked to be read again)
   * @param known what this holder knows of the task files (updated once a commit is whole)
   * @param mark its high-water mark file
   * @param exclusive the holder's queue, shared with its reads (its own when not given)
   */
  constructor(
    private readonly folder: string,
    private readonly lock: ListLock,
    private readonly journal: ChangeJournal,
    private readonly folderWatch: FolderWatch,
    private readonly known: KnownTaskFiles,
    private readonly mark: HighWaterMarkFile,
    private readonly exclusive: OneAtATime = oneAtATime(),
  ) {}

  /**
   * Commits `write` (call it under the list lock, whose locks are `locks`). When a step fails, the
   * steps made visible are taken back, so "nothing was changed" is true; when that cannot be done
   * (or a lock was lost after a step was visible), the error says the change may have been saved.
   * Resolves to the feed's sequence after the commit.
   * @throws ListFileError
   */
  async commit(write: TaskWrite, locks: TransactionLocks): Promise<number> {
    const highWaterMark = Math.max(write.highWaterMark, ...write.removed.map(Number));
    const { replaced, removed } = await this.exclusive(() => this.toLock(write));
    // Waited for outside the holder's queue: Claude Code may hold a task's lock for a while.
    const taskLocks = await this.lockTasks(replaced, removed, locks);
    return this.exclusive(async () => {
      for (const id of replaced) await this.checkUnchanged(`${id}.json`, true);
      for (const id of removed) await this.checkUnchanged(`${id}.json`, false);
      const prepared = await this.prepare(write, highWaterMark);
      const steps = new CommitSteps(this.folder, this.folderWatch.dirty);
      try {
        await this.makeVisible(write, prepared, steps, { locks, taskLocks, highWaterMark });
      } catch (error) {
        for (const { temporary } of prepared) await disk.remove(temporary);
        const failure = await steps.failure(error);
        await steps.dropBackups();
        throw failure;
      }
      await steps.dropBackups();
      await this.committed(write, prepared, highWaterMark, locks);
      return this.journal.seq;
    });
  }

  /**
   * The visible steps of a commit, each fenced: the files renamed or linked in, the removals, the
   * feed's line, the folder's fsync, and a last check of every lock held.
   */
  private async makeVisible(
    write: TaskWrite,
    prepared: PreparedFile[],
    steps: CommitSteps,
    held: { locks: TransactionLocks; taskLocks: Map<string, LockFence>; highWaterMark: number },
  ): Promise<void> {
    const { locks, taskLocks, highWaterMark } = held;
    for (const entry of prepared) {
      await locks.check();
      await taskLocks.get(entry.name)?.check();
      await steps.put(entry);
    }
    for (const id of write.removed) {
      await locks.check();
      await taskLocks.get(`${id}.json`)?.check();
      await steps.remove(`${id}.json`);
    }
    // The task files are all in: their locks are checked again before the answer.
    await locks.check();
    await this.journal.append({
      seq: this.journal.seq + 1,
      put: write.put.map((record) => record.id),
      removed: [...write.removed],
      highWaterMark,
    });
    steps.made(() => this.journal.retractLast());
    await syncFolder(this.folder);
    await locks.check();
    for (const fence of taskLocks.values()) await fence.check();
  }

  /** Records what a whole commit wrote as this holder's own, and compacts the feed when it is due. */
  private async committed(
    write: TaskWrite,
    prepared: PreparedFile[],
    highWaterMark: number,
    locks: TransactionLocks,
  ): Promise<void> {
    for (const { name, signature, keys } of prepared) {
      // A rename or link keeps the file's inode, size and mtime: its signature is the temporary's.
      if (name !== FOLDER_FILES.highWaterMark) this.known.set(name, { signature, keys });
    }
    for (const id of write.removed) this.known.delete(`${id}.json`);
    if (prepared.some(({ name }) => name === FOLDER_FILES.highWaterMark)) this.mark.wrote(highWaterMark);
    for (const record of write.put) this.known.highestId = Math.max(this.known.highestId, Number(record.id));
    await this.journal.compactIfNeeded(() => locks.check());
    // The folder exists now (this may have been its first change): watched from here on.
    this.folderWatch.start();
  }

  /**
   * The existing task files `write` replaces (those this holder knows) and removes (known, or
   * there): a new task needs no lock, Claude Code creates under the list lock, held already.
   */
  private async toLock(write: TaskWrite): Promise<{ replaced: string[]; removed: string[] }> {
    const replaced = write.put.map((record) => record.id).filter((id) => this.known.has(`${id}.json`));
    const removed: string[] = [];
    for (const id of write.removed) {
      if (this.known.has(`${id}.json`) || (await exists(join(this.folder, `${id}.json`)))) removed.push(id);
    }
    return { replaced, removed };
  }

  /**
   * Takes the lock of every task file `replaced` or `removed`, as Claude Code 2.1.332 takes it to
   * update or delete that task, in id order; the caller then checks under those locks that each
   * file is still the version this holder read. Resolves to each file's fence; the locks are
   * released when the transaction ends. @throws ListFileError when a lock cannot be had.
   */
  private async lockTasks(
    replaced: string[],
    removed: string[],
    locks: TransactionLocks,
  ): Promise<Map<string, LockFence>> {
    const fences = new Map<string, LockFence>();
    for (const id of [...new Set([...replaced, ...removed])].sort((a, b) => Number(a) - Number(b))) {
      fences.set(`${id}.json`, await locks.hold(this.lock.taskLock(id)));
    }
    return fences;
  }

  /**
   * Checks (under the task's lock) that task file `name` is the version this holder read or wrote:
   * another writer's update or delete made since (Claude Code's, under that lock alone, or its
   * reset of a completed list) is never written over, and a deleted task never written back from
   * what this holder remembers. A file to remove that is gone already is fine.
   * @throws ListFileError (nothing was changed); the file is read again at the next look.
   */
  private async checkUnchanged(name: string, replacing: boolean): Promise<void> {
    const path = join(this.folder, name);
    let signature: string | undefined;
    try {
      signature = signatureOf(await disk.lstat(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ListFileError(`${path}: cannot be read (${codeOf(error)}); nothing was changed`);
      }
      signature = undefined;
    }
    if (signature === this.known.get(name)?.signature || (signature === undefined && !replacing)) return;
    this.folderWatch.dirty.add(name);
    if (signature === undefined) throw vanished(path);
    throw new ListFileError(
      `${path}: was changed by another writer while this change was being made (Claude Code updates a task under that task's lock alone); nothing was changed: read the task again before changing it`,
    );
  }

  /**
   * Writes every file of `write` under a temporary name, whole and fsynced, before any becomes
   * visible: when one cannot be written (a full disk), none is, and nothing changed.
   */
  private async prepare(write: TaskWrite, highWaterMark: number): Promise<PreparedFile[]> {
    const files = write.put.map((record) => {
      const known = this.known.get(`${record.id}.json`);
      // An update is written as Claude Code writes one: the keys the file held in their order, new ones last.
      return {
        name: `${record.id}.json`,
        data: formatTaskFile(record, known?.keys),
        keys: keysOf(record),
        fresh: !known,
      };
    });
    // Claude Code takes a new id above the highest file name and the high-water mark: once the
    // highest tasks are gone only the mark keeps their ids from coming back.
    const highestStays =
      !write.removed.includes(String(highWaterMark)) && (await exists(join(this.folder, `${highWaterMark}.json`)));
    if (write.removed.length && highWaterMark > (await this.mark.read()) && !highestStays) {
      files.push({ name: FOLDER_FILES.highWaterMark, data: String(highWaterMark), keys: 0, fresh: false });
    }
    const prepared: PreparedFile[] = [];
    try {
      for (const { name, data, keys, fresh } of files) {
        const entry = { temporary: temporaryPath(join(this.folder, name)), name, signature: '', keys, fresh };
        prepared.push(entry);
        entry.signature = signatureOf(await writeDurably(entry.temporary, Buffer.from(data, 'utf8')));
      }
    } catch (error) {
      for (const { temporary } of prepared) await disk.remove(temporary);
      throw new ListFileError(`${this.folder}: could not be saved (${codeOf(error)}); nothing was changed`);
    }
    return prepared;
  }
}
