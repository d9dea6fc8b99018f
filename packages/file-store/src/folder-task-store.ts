/**
 * The task store of one holder of a list folder (`TaskFolder.tasks`): TaskStore's four calls, made
 * of the folder's reads (task-folder-reads.ts, no lock) and its commits (task-commit.ts, under the
 * list lock), which share what this holder knows of the task files and of the high-water mark.
 */
import { join } from 'node:path';
import type { TaskCatchUp, TaskDelta, TaskListSnapshot, TaskStore, TaskTransaction } from '@raider/todo-tools';
import { ChangeJournal } from './change-journal.js';
import { FOLDER_FILES } from './folder-files.js';
import type { FolderWatch } from './folder-watch.js';
import { HighWaterMarkFile } from './high-water-mark.js';
import { KnownTaskFiles } from './known-task-files.js';
import type { ListLock } from './list-lock.js';
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
    this.commits = new TaskCommit(path, lock, this.journal, folderWatch, known, mark);
  }

  async load(): Promise<TaskListSnapshot> {
    await this.ready();
    return this.reads.loadAll();
  }

  async changesSince(seq: number): Promise<TaskDelta | undefined> {
    await this.ready();
    return seq < 0 ? undefined : this.reads.deltaSince(seq, false);
  }

  async transact<R>(seq: number, fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>) {
    await this.ready();
    return this.lock.run(async (locks) => {
      const catchUp = (seq >= 0 ? this.reads.deltaSince(seq, true) : undefined) ?? this.reads.loadAll();
      const { write, result } = await fn(catchUp);
      if (write && (write.put.length || write.removed.length)) await this.commits.commit(write, locks);
      return { result, seq: this.journal.seq };
    });
  }

  watch(onChange: () => void): () => void {
    return this.folderWatch.add(onChange);
  }
}
