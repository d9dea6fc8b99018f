/**
 * A task list kept as Claude Code keeps its own: a folder with one JSON file per task
 * (`<id>.json`, Claude Code's record), `.highwatermark` (the highest id ever handed out) and
 * `.lock` (the list lock, taken with proper-lockfile, as Claude Code takes it). raider adds a
 * change feed (`.raider-changes.jsonl`) and the state of its other families
 * (`.raider-todo.json`, `.raider-todo-write.json`); all of them hidden, so Claude Code's reader
 * and its reset pass them by.
 *
 * A change writes only what it changes: the files of the tasks it touched (each through a
 * temporary file, fsync and rename), one journal line, one fsync of the folder. It is made under
 * the list lock and, for every existing task file it replaces or removes, that task's lock too
 * (Claude Code 2.1.332 updates and deletes a task under that lock alone), each file checked under
 * it to be the version the holder read. Reads take no lock: a holder reads the journal's new lines
 * and the files they name. Files that another writer (Claude Code itself, a teammate) changes
 * without the journal are noticed by a watch on the folder, and a task created that way is found
 * under the lock before a new id is handed out.
 *
 * Here the folder is opened and its stores put together; the task store is folder-task-store.ts
 * (its reads in task-folder-reads.ts, its commit and fencing in task-commit.ts and commit-steps.ts,
 * the high-water mark in high-water-mark.ts), the other families' files whole-state-store.ts, the
 * inboxes messages/, the questions to a person questions/ (`.questions/`).
 */
import { join } from 'node:path';
import type { MessageLimits, MessageStore, QuestionLimits, QuestionStore } from '@raider/tasks-registry';
import type { ListStores, TodoSnapshot, TodoWriteState } from '@raider/todo-tools';
import { FOLDER_FILES } from './folder-files.js';
import { FolderTaskStore } from './folder-task-store.js';
import { FolderWatch } from './folder-watch.js';
import { ListLock, type LockFence } from './list-lock.js';
import { messageLimits } from './messages/message-checks.js';
import { openMessageFolder } from './messages/message-folder.js';
import { questionLimits } from './questions/question-checks.js';
import { openQuestionFolder } from './questions/question-folder.js';
import { migrateV1 } from './v1-migration.js';
import { wholeStateStore } from './whole-state-store.js';

/** Options of {@link openTaskFolder}. */
export interface TaskFolderOptions {
  /**
   * A lock untouched this long is stale (its holder died or froze) and is taken over; at least
   * 2000 ms (default 10 000, Claude Code's). A call waits for the lock up to this plus
   * max(5 000, half of it) ms.
   */
  staleMs?: number;
  /** How many changes the feed keeps (default 1 000); a holder further behind loads the list whole. */
  keepChanges?: number;
  /** Metadata nesting deeper than this makes a task file unreadable (default 32, as @raider/todo-tools). */
  maxMetadataDepth?: number;
  /**
   * Told, by file name, of a task file that cannot be read (it is left untouched and out of the
   * list), of a message file that cannot be read (moved aside, out of its inbox), and of a
   * question file that cannot be trusted (moved aside to `<n>.json.corrupt`, out of the list's questions).
   */
  onProblem?: (message: string) => void;
  /** The bounds of the list's inboxes (`messages`), over `DEFAULT_MESSAGE_LIMITS` of @raider/tasks-registry. */
  messageLimits?: Partial<MessageLimits>;
  /**
   * The bounds of the list's questions (`questions`), over `DEFAULT_QUESTION_LIMITS` of
   * @raider/tasks-registry (`keepSettledMs`: how long a settled or expired question stays readable).
   */
  questionLimits?: Partial<QuestionLimits>;
  /**
   * Watch the folder for changes made elsewhere (default true). Without the watch a holder learns
   * of a change made without the change feed (Claude Code's update, delete or reset) when it loads
   * the list whole, or when a change of its own touches that task and is refused for it.
   */
  watch?: boolean;
  /**
   * A list file of raider-server's first layout (one file per list) to convert into this folder
   * at the first use, then keep beside it as `<file>.v1-backup`.
   */
  v1File?: string;
}

/**
 * One list folder: the task store of one holder, the stores of the other families, and a watch
 * (a coalesced wake-up whenever a file of the folder may have changed).
 */
export interface TaskFolder extends ListStores {
  /** The folder. */
  readonly path: string;
  /**
   * The messages of the list's agents (a MessageStore of @raider/tasks-registry), kept in the
   * folder's `.messages/`: durable sends, leases every process sees, a watch per inbox.
   */
  readonly messages: MessageStore;
  /**
   * The questions the list's agents asked a person (a QuestionStore of @raider/tasks-registry),
   * kept in the folder's `.questions/`: one file per question, durable asks and settles, ids never
   * given twice, the first outcome wins across processes, a watch of the folder.
   */
  readonly questions: QuestionStore;
  /** Stops watching the folder, the inboxes and the questions. */
  close(): void;
}

/**
 * Opens (without touching the disk) the list folder `path`: created at the first change, read as
 * Claude Code wrote it. A task file that cannot be read is reported through `onProblem` by name,
 * left untouched, and its id never handed out again; the rest of the list works.
 */
export function openTaskFolder(path: string, options: TaskFolderOptions = {}): TaskFolder {
  const staleMs = Math.max(2000, options.staleMs ?? 10_000);
  const lock = new ListLock(path, staleMs);
  const folderWatch = new FolderWatch(path, options.watch !== false);
  const maxDepth = options.maxMetadataDepth ?? 32;
  const run = <T>(fn: (fence: LockFence) => Promise<T>) => lock.run(fn);
  // A v1 list file is converted before the folder is first used (and tried again after a failure).
  let converted = options.v1File === undefined;
  const ready = async (): Promise<void> => {
    if (converted) return;
    await migrateV1(options.v1File as string, path, run, maxDepth);
    converted = true;
  };
  const report = options.onProblem ?? (() => {});
  const tasks = new FolderTaskStore(path, lock, folderWatch, ready, {
    maxDepth,
    keepChanges: Math.max(1, options.keepChanges ?? 1000),
    report,
  });
  const messages = openMessageFolder(path, { limits: messageLimits(options.messageLimits), staleMs, report });
  const questions = openQuestionFolder(path, { limits: questionLimits(options.questionLimits), staleMs, report });
  return {
    path,
    tasks,
    todo: wholeStateStore<TodoSnapshot>(join(path, FOLDER_FILES.todo), run, ready),
    todoWrite: wholeStateStore<TodoWriteState>(join(path, FOLDER_FILES.todoWrite), run, ready),
    messages,
    questions,
    watch: (onChange) => folderWatch.add(onChange),
    close: () => {
      folderWatch.close();
      messages.close();
      questions.close();
    },
  };
}
