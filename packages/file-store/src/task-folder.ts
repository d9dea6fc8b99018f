/**
 * A task list kept as Claude Code keeps its own: a folder with one JSON file per task
 * (`<id>.json`, Claude Code's record), `.highwatermark` (the highest id ever handed out) and
 * `.lock` (the list lock, taken with proper-lockfile, as Claude Code takes it). raider adds a
 * change feed (`.raider-changes.jsonl`) and the state of its other families
 * (`.raider-todo.json`, `.raider-todo-write.json`); all of them hidden, so Claude Code's reader
 * and its reset pass them by.
 *
 * A change writes only what it changes: the files of the tasks it touched (each through a
 * temporary file, fsync and rename), one journal line, one fsync of the folder. Reads take no
 * lock: a holder reads the journal's new lines and the files they name. Files that another writer
 * (Claude Code itself, a teammate) changes without the journal are noticed by a watch on the
 * folder, and a task created that way is found under the lock before a new id is handed out.
 */
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type {
  ListStore,
  ListStores,
  TaskCatchUp,
  TaskDelta,
  TaskListSnapshot,
  TaskRecord,
  TaskStore,
  TaskTransaction,
  TaskWrite,
  TodoSnapshot,
  TodoWriteState,
  Transaction,
} from '@raider/todo-tools';
import { ChangeJournal } from './change-journal.js';
import { codeOf, syncFolder, temporaryOwner, temporaryPath, writeDurably } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';
import { FolderWatch } from './folder-watch.js';
import { exists, isLockLost, ListLock, type LockFence } from './list-lock.js';
import { readRegular, signatureOf } from './regular-file.js';
import { formatTaskFile, MAX_TASK_ID, parseTaskFile, taskIdOf } from './task-file.js';
import { migrateV1 } from './v1-migration.js';

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
  /** Told, by file name, of a task file that cannot be read (it is left untouched and out of the list). */
  onProblem?: (message: string) => void;
  /** Watch the folder for changes made elsewhere (default true). */
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
  /** Stops watching the folder. */
  close(): void;
}

/** True while process `pid` runs (on this machine). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A file prepared for a commit: written whole and fsynced under a temporary name. */
interface Prepared {
  temporary: string;
  name: string;
  signature: string;
  /** True for a task file this holder has not seen (a create): it must not replace a file that exists. */
  fresh: boolean;
}

/** How one visible step of a commit is taken back when a later step fails. */
type Undo = () => void;

/** `error` (a ListFileError) marked as a change that may have been saved: see TaskStore's contract. */
function mayHaveBeenSaved(error: ListFileError): ListFileError {
  return Object.assign(error, { mayHaveBeenSaved: true });
}

/** The task store of one holder of a list folder. */
class FolderTaskStore implements TaskStore {
  private readonly journal: ChangeJournal;
  /** Versions of the task files this holder read or wrote (to tell its own writes from others'). */
  private readonly known = new Map<string, string>();
  /** The highest id this holder knows of (a task, a bad file, the high-water mark). */
  private highestId = 0;
  private storedHighWaterMark = 0;

  constructor(
    private readonly path: string,
    private readonly lock: ListLock,
    private readonly folderWatch: FolderWatch,
    private readonly ready: () => Promise<void>,
    private readonly options: { maxDepth: number; keepChanges: number; report: (message: string) => void },
  ) {
    this.journal = new ChangeJournal(join(path, FOLDER_FILES.journal), options.keepChanges);
  }

  async load(): Promise<TaskListSnapshot> {
    await this.ready();
    return this.loadAll();
  }

  async changesSince(seq: number): Promise<TaskDelta | undefined> {
    await this.ready();
    return seq < 0 ? undefined : this.deltaSince(seq, false);
  }

  async transact<R>(seq: number, fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>) {
    await this.ready();
    return this.lock.run(async (fence) => {
      const catchUp = (seq >= 0 ? this.deltaSince(seq, true) : undefined) ?? this.loadAll();
      const { write, result } = await fn(catchUp);
      if (write && (write.put.length || write.removed.length)) this.commit(write, fence);
      return { result, seq: this.journal.seq };
    });
  }

  watch(onChange: () => void): () => void {
    return this.folderWatch.add(onChange);
  }

  private file(name: string): string {
    return join(this.path, name);
  }

  /** Reads one task file: its record, or undefined when it is gone or cannot be read (then reported). */
  private readTask(id: string): TaskRecord | undefined {
    const name = `${id}.json`;
    this.highestId = Math.max(this.highestId, Number(id));
    let content: ReturnType<typeof readRegular>;
    try {
      content = readRegular(this.file(name));
    } catch (error) {
      this.options.report(
        `${this.file(name)}: ${error instanceof Error ? error.message : String(error)}; left as it is`,
      );
      this.known.delete(name);
      return undefined;
    }
    if (!content) {
      this.known.delete(name);
      return undefined;
    }
    this.known.set(name, content.signature);
    const record = parseTaskFile(content.text, id, this.options.maxDepth);
    if (typeof record === 'string') {
      this.options.report(`${this.file(name)}: ${record}; left as it is, and out of the list`);
      return undefined;
    }
    return record;
  }

  /** `.highwatermark`, read again only when it may have changed. */
  private readHighWaterMark(): number {
    if (!this.folderWatch.highWaterMarkDirty) return this.storedHighWaterMark;
    this.folderWatch.highWaterMarkDirty = !this.folderWatch.active;
    const path = this.file(FOLDER_FILES.highWaterMark);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.storedHighWaterMark;
      throw new ListFileError(`${path}: cannot be read (${codeOf(error)})`);
    }
    const trimmed = text.trim();
    const value = Number(trimmed);
    if (Number.isSafeInteger(value) && value >= 0) this.storedHighWaterMark = Math.max(this.storedHighWaterMark, value);
    else if (/^[0-9]+$/.test(trimmed)) {
      // Beyond the highest id a list hands out: every id is taken, so creates are refused (never a loop, never a reused id).
      this.storedHighWaterMark = MAX_TASK_ID;
      this.options.report(
        `${path}: ${trimmed.length > 20 ? `a ${trimmed.length}-digit number` : trimmed} is beyond ${MAX_TASK_ID}, the highest id a list hands out; left as it is, and no new id is handed out`,
      );
    } else this.options.report(`${path}: expected a whole number; left as it is`);
    return this.storedHighWaterMark;
  }

  private refreshJournal(): void {
    try {
      this.journal.refresh();
    } catch (error) {
      throw new ListFileError(`${this.journal.path}: cannot be read (${codeOf(error)})`);
    }
  }

  /** The high-water mark as this holder knows it: the file's, the feed's, the highest id seen. */
  private highWaterMark(): number {
    return Math.max(this.readHighWaterMark(), this.journal.highWaterMark, this.highestId);
  }

  /** The whole list, read from the folder (a holder's first call, a reload). */
  private loadAll(): TaskListSnapshot {
    this.refreshJournal();
    const seq = this.journal.seq;
    this.folderWatch.start();
    let names: string[];
    try {
      names = readdirSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ListFileError(`${this.path}: cannot be read (${codeOf(error)})`);
      }
      names = [];
    }
    this.folderWatch.dirty.clear();
    const tasks: TaskRecord[] = [];
    for (const name of names) {
      const id = taskIdOf(name);
      if (id) {
        const record = this.readTask(id);
        if (record) tasks.push(record);
        continue;
      }
      if (/^[1-9][0-9]*\.json$/.test(name)) {
        this.options.report(
          `${this.file(name)}: its id is beyond ${MAX_TASK_ID}, the highest id a list hands out; left as it is, and out of the list`,
        );
        continue;
      }
      // A temporary file a killed writer left: removed once its process is gone.
      const owner = temporaryOwner(name);
      if (owner !== undefined && owner !== process.pid && !alive(owner)) rmSync(this.file(name), { force: true });
    }
    tasks.sort((a, b) => Number(a.id) - Number(b.id));
    this.folderWatch.highWaterMarkDirty = true;
    return { tasks, highWaterMark: this.highWaterMark(), seq };
  }

  /**
   * What changed after `seq`: the ids the journal names, the task files a watch saw change (other
   * writers), and, under the lock, tasks created beyond the highest id known. Undefined when the
   * journal does not reach back to `seq`.
   */
  private deltaSince(seq: number, underLock: boolean): TaskDelta | undefined {
    this.refreshJournal();
    const fromJournal = this.journal.since(seq);
    if (!fromJournal) return undefined;
    const ids = fromJournal.ids;
    for (const id of this.changedElsewhere()) ids.add(id);
    if (underLock) for (const id of this.createdElsewhere()) ids.add(id);
    const put: TaskRecord[] = [];
    const removed: string[] = [];
    for (const id of ids) {
      const record = this.readTask(id);
      if (record) put.push(record);
      else removed.push(id);
    }
    return { seq: this.journal.seq, put, removed, highWaterMark: this.highWaterMark() };
  }

  /** The ids of the task files the watch saw change that this holder did not write (as it last saw them). */
  private changedElsewhere(): string[] {
    const ids: string[] = [];
    for (const name of this.folderWatch.dirty) {
      this.folderWatch.dirty.delete(name);
      let signature: string | undefined;
      try {
        signature = signatureOf(statSync(this.file(name)));
      } catch {
        signature = undefined;
      }
      if (signature !== this.known.get(name)) ids.push(taskIdOf(name) as string);
    }
    return ids;
  }

  /**
   * Tasks created beyond the highest id known (by Claude Code, or another writer without the
   * journal, under this same lock): a new id must be above them. Usually one failed stat.
   */
  private createdElsewhere(): string[] {
    const ids: string[] = [];
    for (
      let next = Math.max(this.highestId, this.readHighWaterMark()) + 1;
      next <= MAX_TASK_ID && exists(this.file(`${next}.json`));
      next += 1
    ) {
      ids.push(String(next));
    }
    return ids;
  }

  /**
   * Commits a write (under the lock): temporary files first, then (each checked against the
   * lock's fence) the task files linked or renamed in, the removals, the journal line, one folder
   * fsync, and a last check before the call may answer. When a step fails, the steps made visible
   * are taken back, so "nothing was changed" is true; when that cannot be done (or the lock was
   * lost after a step was visible), the error says the change may have been saved.
   */
  private commit(write: TaskWrite, fence: LockFence): void {
    const highWaterMark = Math.max(write.highWaterMark, ...write.removed.map(Number));
    const prepared = this.prepare(write, highWaterMark);
    const undo: Undo[] = [];
    const backups: string[] = [];
    let visible = false;
    try {
      for (const entry of prepared) {
        fence.check();
        this.putFile(entry, undo, backups);
        visible = true;
      }
      for (const id of write.removed) {
        fence.check();
        this.removeFile(`${id}.json`, undo, backups);
        visible = true;
      }
      fence.check();
      this.journal.append({
        seq: this.journal.seq + 1,
        put: write.put.map((record) => record.id),
        removed: [...write.removed],
        highWaterMark,
      });
      visible = true;
      undo.push(() => this.journal.retractLast());
      syncFolder(this.path);
      fence.check();
    } catch (error) {
      for (const { temporary } of prepared) rmSync(temporary, { force: true });
      const failure = this.failure(error, visible, undo);
      for (const backup of backups) rmSync(backup, { force: true });
      throw failure;
    }
    for (const backup of backups) rmSync(backup, { force: true });
    for (const { name, signature } of prepared) {
      // A rename or link keeps the file's inode, size and mtime: its signature is the temporary's.
      if (name !== FOLDER_FILES.highWaterMark) this.known.set(name, signature);
    }
    for (const id of write.removed) this.known.delete(`${id}.json`);
    if (prepared.some(({ name }) => name === FOLDER_FILES.highWaterMark)) this.storedHighWaterMark = highWaterMark;
    for (const record of write.put) this.highestId = Math.max(this.highestId, Number(record.id));
    this.journal.compactIfNeeded(() => fence.check());
  }

  /**
   * Makes one prepared file visible. A new task file is linked in, which fails when a file of
   * that name exists (a holder that lost its lock never writes over another's create); a file
   * that exists is renamed over, its previous version kept under a hidden name until the commit
   * is whole (to be put back if it is not).
   */
  private putFile(entry: Prepared, undo: Undo[], backups: string[]): void {
    const path = this.file(entry.name);
    if (entry.fresh && this.linkFresh(entry, path)) {
      undo.push(() => unlinkSync(path));
      return;
    }
    const backup = temporaryPath(path);
    try {
      linkSync(path, backup);
      backups.push(backup);
      undo.push(() => renameSync(backup, path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // Gone meanwhile (deleted by another writer): the put makes it anew.
      undo.push(() => unlinkSync(path));
    }
    renameSync(entry.temporary, path);
  }

  /**
   * Links a new task file in, never over one that exists. False when the file system has no hard
   * links (the caller renames then, after checking that no file of that name exists).
   */
  private linkFresh(entry: Prepared, path: string): boolean {
    try {
      linkSync(entry.temporary, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        throw new ListFileError(
          `${path}: exists already, though this list's lock was held for the create (another process wrote it without the lock); nothing was changed`,
        );
      }
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
      if (exists(path)) {
        throw new ListFileError(
          `${path}: exists already, though this list's lock was held for the create (another process wrote it without the lock); nothing was changed`,
        );
      }
      return false;
    }
    rmSync(entry.temporary, { force: true });
    return true;
  }

  /** Removes a task file, kept under a hidden name until the commit is whole (to be put back if it is not). */
  private removeFile(name: string, undo: Undo[], backups: string[]): void {
    const path = this.file(name);
    const backup = temporaryPath(path);
    try {
      renameSync(path, backup);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // Gone already.
      throw error;
    }
    backups.push(backup);
    undo.push(() => renameSync(backup, path));
  }

  /**
   * The error of a commit that failed at `error`: the visible steps taken back (newest first) and
   * "nothing was changed"; or, when the lock was lost after a step was visible or a step cannot be
   * taken back, an error that says the change may have been saved.
   */
  private failure(error: unknown, visible: boolean, undo: Undo[]): ListFileError {
    if (isLockLost(error)) {
      if (!visible) return new ListFileError(`${error.message}; nothing was changed`);
      // Not ours to take back: the new holder may have written since.
      return mayHaveBeenSaved(new ListFileError(`${error.message}; it may have been saved, in part or whole`));
    }
    // The store's own refusal (a create that found its file taken) says what happened already.
    const own = ListFileError.isInstance(error) ? (error as ListFileError) : undefined;
    if (own && !visible) return own;
    const code = own ? 'another writer' : codeOf(error);
    let undone = true;
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        undone = false;
      }
    }
    if (undone) {
      try {
        syncFolder(this.path);
      } catch {
        // What is visible is the list as it was; a crash right now could still show the change.
      }
      return own ?? new ListFileError(`${this.path}: could not be saved (${code}); nothing was changed`);
    }
    return mayHaveBeenSaved(
      new ListFileError(`${this.path}: the change was made in part and could not be taken back (${code})`),
    );
  }

  /**
   * Writes every file of `write` under a temporary name, whole and fsynced, before any becomes
   * visible: when one cannot be written (a full disk), none is, and nothing changed.
   */
  private prepare(write: TaskWrite, highWaterMark: number): Prepared[] {
    const files = write.put.map((record) => ({
      name: `${record.id}.json`,
      data: formatTaskFile(record),
      fresh: !this.known.has(`${record.id}.json`),
    }));
    // Claude Code takes a new id above the highest file name and the high-water mark: once the
    // highest tasks are gone only the mark keeps their ids from coming back.
    const highestStays = !write.removed.includes(String(highWaterMark)) && exists(this.file(`${highWaterMark}.json`));
    if (write.removed.length && highWaterMark > this.readHighWaterMark() && !highestStays) {
      files.push({ name: FOLDER_FILES.highWaterMark, data: String(highWaterMark), fresh: false });
    }
    const prepared: Prepared[] = [];
    try {
      for (const { name, data, fresh } of files) {
        const entry = { temporary: temporaryPath(this.file(name)), name, signature: '', fresh };
        prepared.push(entry);
        entry.signature = signatureOf(writeDurably(entry.temporary, Buffer.from(data, 'utf8')));
      }
    } catch (error) {
      for (const { temporary } of prepared) rmSync(temporary, { force: true });
      throw new ListFileError(`${this.path}: could not be saved (${codeOf(error)}); nothing was changed`);
    }
    return prepared;
  }
}

/**
 * Opens (without touching the disk) the list folder `path`: created at the first change, read as
 * Claude Code wrote it. A task file that cannot be read is reported through `onProblem` by name,
 * left untouched, and its id never handed out again; the rest of the list works.
 */
export function openTaskFolder(path: string, options: TaskFolderOptions = {}): TaskFolder {
  const lock = new ListLock(path, Math.max(2000, options.staleMs ?? 10_000));
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
  const tasks = new FolderTaskStore(path, lock, folderWatch, ready, {
    maxDepth,
    keepChanges: Math.max(1, options.keepChanges ?? 1000),
    report: options.onProblem ?? (() => {}),
  });
  return {
    path,
    tasks,
    todo: wholeStateStore<TodoSnapshot>(join(path, FOLDER_FILES.todo), run, ready),
    todoWrite: wholeStateStore<TodoWriteState>(join(path, FOLDER_FILES.todoWrite), run, ready),
    watch: (onChange) => folderWatch.add(onChange),
    close: () => folderWatch.close(),
  };
}

/** A family's whole state in one file of the folder, changed under the list lock. */
function wholeStateStore<T>(
  path: string,
  locked: <R>(fn: (fence: LockFence) => Promise<R>) => Promise<R>,
  ready: () => Promise<void>,
): ListStore<T> {
  const read = (): T | undefined => {
    const content = readRegular(path);
    if (!content) return undefined;
    try {
      const value = JSON.parse(content.text) as unknown;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
      return value as T;
    } catch {
      throw new ListFileError(`${path}: not a JSON object (${content.text.length} characters); fix or remove the file`);
    }
  };
  return {
    async load() {
      await ready();
      return read();
    },
    async transact<R>(fn: (current: T | undefined) => Transaction<T, R> | Promise<Transaction<T, R>>): Promise<R> {
      await ready();
      return locked(async (fence) => {
        const { next, result } = await fn(read());
        if (next !== undefined) saveWhole(path, Buffer.from(`${JSON.stringify(next)}\n`, 'utf8'), fence);
        return result;
      });
    },
  };
}

/**
 * Replaces a family's state file under the lock's fence: temporary file, check, rename, folder
 * fsync, check. Before the rename, a failure keeps the previous version; after it, the error
 * says the change may have been saved.
 */
function saveWhole(path: string, data: Buffer, fence: LockFence): void {
  const temporary = temporaryPath(path);
  try {
    writeDurably(temporary, data);
    fence.check();
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    if (isLockLost(error)) throw new ListFileError(`${error.message}; the previous version is kept`);
    throw new ListFileError(`${path}: could not be saved (${codeOf(error)}); the previous version is kept`);
  }
  try {
    syncFolder(join(path, '..'));
    fence.check();
  } catch (error) {
    const why = isLockLost(error) ? error.message : `${path}: its folder could not be synced (${codeOf(error)})`;
    throw mayHaveBeenSaved(new ListFileError(`${why}; the new version may have been saved`));
  }
}
