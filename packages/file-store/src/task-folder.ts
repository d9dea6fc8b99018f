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
 */
import { linkSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageLimits, MessageStore } from '@raider/tasks-registry';
import type {
  ListStore,
  ListStores,
  ListTransaction,
  TaskCatchUp,
  TaskDelta,
  TaskListSnapshot,
  TaskRecord,
  TaskStore,
  TaskTransaction,
  TaskWrite,
  TodoSnapshot,
  TodoWriteState,
} from '@raider/todo-tools';
import { ChangeJournal } from './change-journal.js';
import { codeOf, isDeadTemporary, syncFolder, temporaryPath, writeDurably } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';
import { FolderWatch } from './folder-watch.js';
import { exists, isLockLost, ListLock, type LockFence, type TransactionLocks } from './list-lock.js';
import { messageLimits } from './messages/message-checks.js';
import { openMessageFolder } from './messages/message-folder.js';
import { readRegular, signatureOf } from './regular-file.js';
import { formatTaskFile, keysOf, MAX_TASK_ID, parseTaskFile, type RecordKeys, taskIdOf } from './task-file.js';
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
  /**
   * Told, by file name, of a task file that cannot be read (it is left untouched and out of the
   * list), and of a message file that cannot be read (moved aside, out of its inbox).
   */
  onProblem?: (message: string) => void;
  /** The bounds of the list's inboxes (`messages`), over `DEFAULT_MESSAGE_LIMITS` of @raider/tasks-registry. */
  messageLimits?: Partial<MessageLimits>;
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
  /** Stops watching the folder and the inboxes. */
  close(): void;
}

/** A task file as this holder last read or wrote it. */
interface Known {
  /** Its version (inode, size, mtime): what tells a change made elsewhere from one's own write. */
  signature: string;
  /** The optional keys its record held: an update writes its keys in Claude Code's order from them. */
  keys: RecordKeys;
}

/** A file prepared for a commit: written whole and fsynced under a temporary name. */
interface Prepared {
  temporary: string;
  name: string;
  signature: string;
  /** The optional keys of the record written (0 for a file that is not a task's). */
  keys: RecordKeys;
  /** True for a task file this holder has not seen (a create): it must not replace a file that exists. */
  fresh: boolean;
}

/** How one visible step of a commit is taken back when a later step fails. */
type Undo = () => void;

/** The error of a change to a task file another writer deleted meanwhile. */
function vanished(path: string): ListFileError {
  return new ListFileError(
    `${path}: was deleted by another writer while this change was being made (Claude Code deletes a task, and clears a list whose tasks are all completed, without raider's change feed); nothing was changed, and the task is not written back`,
  );
}

/** `error` (a ListFileError) marked as a change that may have been saved: see TaskStore's contract. */
function mayHaveBeenSaved(error: ListFileError): ListFileError {
  return Object.assign(error, { mayHaveBeenSaved: true });
}

/** The task store of one holder of a list folder. */
class FolderTaskStore implements TaskStore {
  private readonly journal: ChangeJournal;
  /** The task files this holder read or wrote, by name (to tell its own writes from others'). */
  private readonly known = new Map<string, Known>();
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
    return this.lock.run(async (locks) => {
      const catchUp = (seq >= 0 ? this.deltaSince(seq, true) : undefined) ?? this.loadAll();
      const { write, result } = await fn(catchUp);
      if (write && (write.put.length || write.removed.length)) await this.commit(write, locks);
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
    const record = parseTaskFile(content.text, id, this.options.maxDepth);
    if (typeof record === 'string') {
      this.known.set(name, { signature: content.signature, keys: 0 });
      this.options.report(`${this.file(name)}: ${record}; left as it is, and out of the list`);
      return undefined;
    }
    this.known.set(name, { signature: content.signature, keys: keysOf(record) });
    return record;
  }

  /**
   * `.highwatermark`, read again only when it may have changed, or always (`fresh`) under the lock:
   * the watch's event for a mark Claude Code raised (its reset, its delete) may not have come yet,
   * and a new id must be above it.
   */
  private readHighWaterMark(fresh = false): number {
    if (!fresh && !this.folderWatch.highWaterMarkDirty) return this.storedHighWaterMark;
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

  /** The high-water mark as this holder knows it: the file's (read again when `fresh`), the feed's, the highest id seen. */
  private highWaterMark(fresh = false): number {
    return Math.max(this.readHighWaterMark(fresh), this.journal.highWaterMark, this.highestId);
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
    this.folderWatch.rescan = false;
    this.known.clear();
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
      // A temporary file a killed raider left: removed once its process is gone. Claude Code's
      // (`<id>.json.tmp.<8 hex>`) name no process, so they are never touched: one may be a live
      // writer's, about to be renamed in.
      if (isDeadTemporary(name)) rmSync(this.file(name), { force: true });
    }
    tasks.sort((a, b) => Number(a.id) - Number(b.id));
    this.folderWatch.highWaterMarkDirty = true;
    return { tasks, highWaterMark: this.highWaterMark(), seq };
  }

  /**
   * What changed after `seq`: the ids the journal names, the task files a watch saw change (other
   * writers; all that differ from what this holder knows when the watch began late), and, under
   * the lock, tasks created beyond the highest id known. Undefined when the journal does not reach
   * back to `seq`.
   */
  private deltaSince(seq: number, underLock: boolean): TaskDelta | undefined {
    this.refreshJournal();
    const fromJournal = this.journal.since(seq);
    if (!fromJournal) return undefined;
    // A folder that did not exist at the first look is watched once it does.
    this.folderWatch.start();
    const ids = fromJournal.ids;
    if (this.folderWatch.rescan) for (const id of this.listedElsewhere()) ids.add(id);
    for (const id of this.changedElsewhere()) ids.add(id);
    if (underLock) for (const id of this.createdElsewhere()) ids.add(id);
    const put: TaskRecord[] = [];
    const removed: string[] = [];
    for (const id of ids) {
      const record = this.readTask(id);
      if (record) put.push(record);
      else removed.push(id);
    }
    return { seq: this.journal.seq, put, removed, highWaterMark: this.highWaterMark(underLock) };
  }

  /**
   * The ids of the task files that differ from what this holder knows, found by listing the folder
   * (those that appeared, changed or vanished): when the watch began after the folder appeared, or
   * again after an error, what happened before is in no event.
   */
  private listedElsewhere(): string[] {
    this.folderWatch.rescan = false;
    let names: string[];
    try {
      names = readdirSync(this.path);
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
        signature = signatureOf(lstatSync(this.file(name)));
      } catch {
        signature = undefined;
      }
      if (signature !== this.known.get(name)?.signature) ids.push(id);
    }
    for (const name of this.known.keys()) if (!listed.has(name)) ids.push(taskIdOf(name) as string);
    return ids;
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
      if (signature !== this.known.get(name)?.signature) ids.push(taskIdOf(name) as string);
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
      let next = Math.max(this.highestId, this.readHighWaterMark(true)) + 1;
      next <= MAX_TASK_ID && exists(this.file(`${next}.json`));
      next += 1
    ) {
      ids.push(String(next));
    }
    return ids;
  }

  /**
   * Commits a write (under the list lock): the lock of every existing task file it replaces or
   * removes taken (each file checked to be the version this holder read), temporary files, then
   * (each checked against the fences of the list lock and of that task's lock) the task files
   * linked or renamed in, the removals, the journal line, one folder fsync, and a last check of
   * every lock before the call may answer. When a step fails, the steps made visible are taken
   * back, so "nothing was changed" is true; when that cannot be done (or a lock was lost after a
   * step was visible), the error says the change may have been saved.
   */
  private async commit(write: TaskWrite, locks: TransactionLocks): Promise<void> {
    const highWaterMark = Math.max(write.highWaterMark, ...write.removed.map(Number));
    const taskLocks = await this.lockTasks(write, locks);
    const checkAll = () => {
      locks.check();
      for (const fence of taskLocks.values()) fence.check();
    };
    const prepared = this.prepare(write, highWaterMark);
    const undo: Undo[] = [];
    const backups: string[] = [];
    let visible = false;
    try {
      for (const entry of prepared) {
        locks.check();
        taskLocks.get(entry.name)?.check();
        this.putFile(entry, undo, backups);
        visible = true;
      }
      for (const id of write.removed) {
        locks.check();
        taskLocks.get(`${id}.json`)?.check();
        this.removeFile(`${id}.json`, undo, backups);
        visible = true;
      }
      // The task files are all in: their locks are checked again before the answer.
      locks.check();
      this.journal.append({
        seq: this.journal.seq + 1,
        put: write.put.map((record) => record.id),
        removed: [...write.removed],
        highWaterMark,
      });
      visible = true;
      undo.push(() => this.journal.retractLast());
      syncFolder(this.path);
      checkAll();
    } catch (error) {
      for (const { temporary } of prepared) rmSync(temporary, { force: true });
      const failure = this.failure(error, visible, undo);
      for (const backup of backups) rmSync(backup, { force: true });
      throw failure;
    }
    for (const backup of backups) rmSync(backup, { force: true });
    for (const { name, signature, keys } of prepared) {
      // A rename or link keeps the file's inode, size and mtime: its signature is the temporary's.
      if (name !== FOLDER_FILES.highWaterMark) this.known.set(name, { signature, keys });
    }
    for (const id of write.removed) this.known.delete(`${id}.json`);
    if (prepared.some(({ name }) => name === FOLDER_FILES.highWaterMark)) this.storedHighWaterMark = highWaterMark;
    for (const record of write.put) this.highestId = Math.max(this.highestId, Number(record.id));
    this.journal.compactIfNeeded(() => locks.check());
    // The folder exists now (this may have been its first change): watched from here on.
    this.folderWatch.start();
  }

  /**
   * Takes the lock of every existing task file `write` replaces or removes, as Claude Code 2.1.332
   * takes it to update or delete that task (a new task needs none: Claude Code creates under the
   * list lock, held already), in id order; then checks under those locks that each file is still
   * the version this holder read. Resolves to each file's fence; the locks are released when the
   * transaction ends. @throws ListFileError when a file changed or vanished meanwhile (nothing was
   * changed), or a lock cannot be had.
   */
  private async lockTasks(write: TaskWrite, locks: TransactionLocks): Promise<Map<string, LockFence>> {
    const replaced = write.put.map((record) => record.id).filter((id) => this.known.has(`${id}.json`));
    const removed = write.removed.filter((id) => this.known.has(`${id}.json`) || exists(this.file(`${id}.json`)));
    const fences = new Map<string, LockFence>();
    for (const id of [...new Set([...replaced, ...removed])].sort((a, b) => Number(a) - Number(b))) {
      fences.set(`${id}.json`, await locks.hold(this.lock.taskLock(id)));
    }
    for (const id of replaced) this.checkUnchanged(`${id}.json`, true);
    for (const id of removed) this.checkUnchanged(`${id}.json`, false);
    return fences;
  }

  /**
   * Checks (under the task's lock) that task file `name` is the version this holder read or wrote:
   * another writer's update or delete made since (Claude Code's, under that lock alone, or its
   * reset of a completed list) is never written over, and a deleted task never written back from
   * what this holder remembers. A file to remove that is gone already is fine.
   * @throws ListFileError (nothing was changed); the file is read again at the next look.
   */
  private checkUnchanged(name: string, replacing: boolean): void {
    const path = this.file(name);
    let signature: string | undefined;
    try {
      signature = signatureOf(lstatSync(path));
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
      if (entry.name !== FOLDER_FILES.highWaterMark) {
        // Deleted since it was checked under its lock (by a writer that ignores the lock): a task
        // deleted is never written back.
        this.folderWatch.dirty.add(entry.name);
        throw vanished(path);
      }
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
    const highestStays = !write.removed.includes(String(highWaterMark)) && exists(this.file(`${highWaterMark}.json`));
    if (write.removed.length && highWaterMark > this.readHighWaterMark() && !highestStays) {
      files.push({ name: FOLDER_FILES.highWaterMark, data: String(highWaterMark), keys: 0, fresh: false });
    }
    const prepared: Prepared[] = [];
    try {
      for (const { name, data, keys, fresh } of files) {
        const entry = { temporary: temporaryPath(this.file(name)), name, signature: '', keys, fresh };
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
  return {
    path,
    tasks,
    todo: wholeStateStore<TodoSnapshot>(join(path, FOLDER_FILES.todo), run, ready),
    todoWrite: wholeStateStore<TodoWriteState>(join(path, FOLDER_FILES.todoWrite), run, ready),
    messages,
    watch: (onChange) => folderWatch.add(onChange),
    close: () => {
      folderWatch.close();
      messages.close();
    },
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
    async transact<R>(
      fn: (current: T | undefined) => ListTransaction<T, R> | Promise<ListTransaction<T, R>>,
    ): Promise<R> {
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
