/**
 * The task store of one holder of a list folder (`TaskFolder.tasks`): TaskStore's four calls, made
 * of the folder's reads (task-folder-reads.ts, no lock) and its commits (task-commit.ts, under the
 * list lock), which share what this holder knows of the task files and of the high-water mark.
 * Those run in one queue of the holder's (`exclusive`): with the file I/O off the event loop, a
 * read and a commit of the same holder would otherwise interleave at each step, which the
 * synchronous code never let them do. Waiting for a lock, and the transaction's own function, run
 * outside it (a read does not wait for another process's lock).
 */
import { join } from 'node:path';
import type { TaskCatchUp, TaskDelta, TaskListSnapshot, TaskStore, TaskTransaction } from '@raider/todo-tools';
import { ChangeJournal } from './change-journal.js';
import { FOLDER_FILES } from './folder-files.js';
import type { FolderWatch } from './folder-watch.js';
import { HighWaterMarkFile } from './high-water-mark.js';
import { KnownTaskFiles } from './known-task-files.js';
import type { ListLock } from './list-lock.js';
import { oneAtATime } from './one-at-a-time.js';
import { TaskCommit } from './task-commit.js';
import { TaskFolderReads } from './task-folder-reads.js';

/** How one holder's task store reads and writes its folder. */
export interface FolderTaskStoreOptions {
  /** Metadata nesting deeper than this makes a task file unreadable. */
  maxDepth: number;
  /** How many changes the feed keeps; a holder further behind loads the list whole. */
  keepChanges: number;
  /** Told, by path, of a file that cannot be read (left as it is, and out of the list). */
  report: (message: string) => void;
}

/** The task store of one holder of a list folder: TaskStore's contract, kept in the folder. */
export class FolderTaskStore implements TaskStore {
  private readonly journal: ChangeJournal;
  private readonly reads: TaskFolderReads;
  private readonly commits: TaskCommit;
  /** The holder's reads and commit steps, one at a time. */
  private readonly exclusive = oneAtATime();

  /**
   * @param path the list folder
   * @param lock its lock
   * @param folderWatch its watch (shared with the folder's other stores)
   * @param ready awaited before every call (a v1 list file converted first)
   */
  constructor(
    path: string,
    private readonly lock: ListLock,
    private readonly folderWatch: FolderWatch,
    private readonly ready: () => Promise<void>,
    options: FolderTaskStoreOptions,
  ) {
    this.journal = new ChangeJournal(join(path, FOLDER_FILES.journal), options.keepChanges);
    const known = new KnownTaskFiles(path, options.maxDepth, options.report);
    const mark = new HighWaterMarkFile(path, folderWatch, options.report);
    this.reads = new TaskFolderReads(path, this.journal, folderWatch, known, mark, options.report);
    this.commits = new TaskCommit(path, lock, this.journal, folderWatch, known, mark, this.exclusive);
  }

  async load(): Promise<TaskListSnapshot> {
    await this.ready();
    return this.exclusive(() => this.reads.loadAll());
  }

  async changesSince(seq: number): Promise<TaskDelta | undefined> {
    await this.ready();
    return seq < 0 ? undefined : this.exclusive(() => this.reads.deltaSince(seq, false));
  }

  async transact<R>(seq: number, fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>) {
    await this.ready();
    return this.lock.run(async (locks) => {
      const caughtUp = await this.exclusive(async () => {
        const catchUp = (seq >= 0 ? await this.reads.deltaSince(seq, true) : undefined) ?? (await this.reads.loadAll());
        return { catchUp, seq: this.journal.seq };
      });
      const { write, result } = await fn(caughtUp.catchUp);
      if (write && (write.put.length || write.removed.length)) {
        return { result, seq: await this.commits.commit(write, locks) };
      }
      return { result, seq: caughtUp.seq };
    });
  }

  watch(onChange: () => void): () => void {
    return this.folderWatch.add(onChange);
  }
}
