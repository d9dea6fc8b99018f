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
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  watch,
} from 'node:fs';
import { join } from 'node:path';
import type {
  ListStore,
  TaskCatchUp,
  TaskDelta,
  TaskListSnapshot,
  TaskRecord,
  TaskStore,
  TaskTransaction,
  TodoSnapshot,
  TodoWriteState,
  Transaction,
} from '@raider/todo-tools';
import lockfile from 'proper-lockfile';
import { ChangeJournal } from './change-journal.js';
import { codeOf, replaceFile, syncFolder, temporaryOwner, temporaryPath, writeDurably } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';
import { readRegular, signatureOf } from './regular-file.js';
import { formatTaskFile, parseTaskFile, taskIdOf } from './task-file.js';
import { migrateV1 } from './v1-migration.js';

/** Options of {@link openTaskFolder}. */
export interface TaskFolderOptions {
  /** A lock untouched this long is stale (its holder died) and is taken over; at least 2000 ms (default 10 000). */
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

/** One list folder: the task store of one holder, the stores of the other families, and a watch. */
export interface TaskFolder {
  /** The folder. */
  readonly path: string;
  /** The task list, by record, with its change feed. Give each holder (each TodoTools) its own folder object. */
  readonly tasks: TaskStore;
  /** The `todo` family's snapshot, whole. */
  readonly todo: ListStore<TodoSnapshot>;
  /** todo_write's last list, whole. */
  readonly todoWrite: ListStore<TodoWriteState>;
  /** Calls `onChange` (soon, coalesced) whenever a file of the folder may have changed; returns a function that stops it. */
  watch(onChange: () => void): () => void;
  /** Stops watching the folder. */
  close(): void;
}

/** True when `path` exists. */
function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
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

// One transaction at a time per folder within this process (the lock orders processes).
const inProcess = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier transaction of this process on `folder`. */
function queued<T>(folder: string, fn: () => Promise<T>): Promise<T> {
  const previous = inProcess.get(folder) ?? Promise.resolve();
  const run = previous.then(fn);
  const tail = run.catch(() => undefined);
  inProcess.set(folder, tail);
  void tail.then(() => {
    if (inProcess.get(folder) === tail) inProcess.delete(folder);
  });
  return run;
}

/**
 * Opens (without touching the disk) the list folder `path`: created at the first change, read as
 * Claude Code wrote it. A task file that cannot be read is reported through `onProblem` by name,
 * left untouched, and its id never handed out again; the rest of the list works.
 */
export function openTaskFolder(path: string, options: TaskFolderOptions = {}): TaskFolder {
  const stale = Math.max(2000, options.staleMs ?? 10_000);
  const maxDepth = options.maxMetadataDepth ?? 32;
  const report = options.onProblem ?? (() => {});
  const journal = new ChangeJournal(join(path, FOLDER_FILES.journal), Math.max(1, options.keepChanges ?? 1000));
  const file = (name: string) => join(path, name);

  /** Versions of the task files this holder read or wrote (to tell its own writes from others'). */
  const known = new Map<string, string>();
  /** Task files a watch saw change, not yet looked at. */
  const dirty = new Set<string>();
  /** The highest id this holder knows of (a task, a bad file, the high-water mark). */
  let highestId = 0;
  let storedHighWaterMark = 0;
  let highWaterMarkDirty = true;
  const listeners = new Set<() => void>();
  let watcher: ReturnType<typeof watch> | undefined;
  let wakeUp: NodeJS.Timeout | undefined;

  const startWatching = () => {
    if (watcher || options.watch === false) return;
    try {
      // The folder is watched from the holder's first look, before its first task exists.
      mkdirSync(path, { recursive: true });
      watcher = watch(path, { persistent: false }, (_event, name) => {
        const fileName = name?.toString();
        if (!fileName) return;
        if (taskIdOf(fileName)) dirty.add(fileName);
        else if (fileName === FOLDER_FILES.highWaterMark) highWaterMarkDirty = true;
        else if (fileName.startsWith('.') && fileName.endsWith('.tmp')) return;
        if (listeners.size && !wakeUp) {
          wakeUp = setTimeout(() => {
            wakeUp = undefined;
            for (const listener of listeners) listener();
          }, 5);
          wakeUp.unref();
        }
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      // A folder that cannot be watched: changes made elsewhere show at the next journal read.
      watcher = undefined;
    }
  };

  /** Reads one task file: its record, or undefined when it is gone or cannot be read (then reported). */
  const readTask = (id: string): TaskRecord | undefined => {
    const name = `${id}.json`;
    highestId = Math.max(highestId, Number(id));
    let content: ReturnType<typeof readRegular>;
    try {
      content = readRegular(file(name));
    } catch (error) {
      report(`${file(name)}: ${error instanceof Error ? error.message : String(error)}; left as it is`);
      known.delete(name);
      return undefined;
    }
    if (!content) {
      known.delete(name);
      return undefined;
    }
    known.set(name, content.signature);
    const record = parseTaskFile(content.text, id, maxDepth);
    if (typeof record === 'string') {
      report(`${file(name)}: ${record}; left as it is, and out of the list`);
      return undefined;
    }
    return record;
  };

  const readHighWaterMark = (): number => {
    if (!highWaterMarkDirty) return storedHighWaterMark;
    highWaterMarkDirty = !watcher;
    let text: string;
    try {
      text = readFileSync(file(FOLDER_FILES.highWaterMark), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return storedHighWaterMark;
      throw new ListFileError(`${file(FOLDER_FILES.highWaterMark)}: cannot be read (${codeOf(error)})`);
    }
    const value = Number(text.trim());
    if (Number.isSafeInteger(value) && value >= 0) storedHighWaterMark = Math.max(storedHighWaterMark, value);
    else report(`${file(FOLDER_FILES.highWaterMark)}: expected a whole number; left as it is`);
    return storedHighWaterMark;
  };

  const refreshJournal = () => {
    try {
      journal.refresh();
    } catch (error) {
      throw new ListFileError(`${journal.path}: cannot be read (${codeOf(error)})`);
    }
  };

  /** The whole list, read from the folder (a holder's first call, a reload). */
  const loadAll = (): TaskListSnapshot => {
    refreshJournal();
    const seq = journal.seq;
    startWatching();
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new ListFileError(`${path}: cannot be read (${codeOf(error)})`);
      }
      names = [];
    }
    dirty.clear();
    const tasks: TaskRecord[] = [];
    for (const name of names) {
      const id = taskIdOf(name);
      if (id) {
        const record = readTask(id);
        if (record) tasks.push(record);
        continue;
      }
      // A temporary file a killed writer left: removed once its process is gone.
      const owner = temporaryOwner(name);
      if (owner !== undefined && owner !== process.pid && !alive(owner)) rmSync(file(name), { force: true });
    }
    tasks.sort((a, b) => Number(a.id) - Number(b.id));
    highWaterMarkDirty = true;
    const highWaterMark = Math.max(readHighWaterMark(), journal.highWaterMark, highestId);
    return { tasks, highWaterMark, seq };
  };

  /**
   * What changed after `seq`: the ids the journal names, the task files a watch saw change (other
   * writers), and, under the lock, tasks created beyond the highest id known. Undefined when the
   * journal does not reach back to `seq`.
   */
  const deltaSince = (seq: number, underLock: boolean): TaskDelta | undefined => {
    refreshJournal();
    const fromJournal = journal.since(seq);
    if (!fromJournal) return undefined;
    const ids = fromJournal.ids;
    for (const name of dirty) {
      dirty.delete(name);
      const id = taskIdOf(name) as string;
      let signature: string | undefined;
      try {
        signature = signatureOf(statSync(file(name)));
      } catch {
        signature = undefined;
      }
      if (signature !== known.get(name)) ids.add(id);
    }
    if (underLock) {
      // Claude Code (or another writer without the journal) may have created tasks under this
      // lock: a new id must be above them. Usually one failed stat.
      for (let next = Math.max(highestId, readHighWaterMark()) + 1; ; next += 1) {
        try {
          statSync(file(`${next}.json`));
        } catch {
          break;
        }
        ids.add(String(next));
      }
    }
    const put: TaskRecord[] = [];
    const removed: string[] = [];
    for (const id of ids) {
      const record = readTask(id);
      if (record) put.push(record);
      else removed.push(id);
    }
    const highWaterMark = Math.max(readHighWaterMark(), journal.highWaterMark, highestId);
    return { seq: journal.seq, put, removed, highWaterMark };
  };

  // The folder and its `.lock` file exist once made (made again if someone removed them).
  let prepared = false;
  const prepareFolder = () => {
    if (prepared && exists(file(FOLDER_FILES.lock))) return;
    try {
      mkdirSync(path, { recursive: true });
      closeSync(openSync(file(FOLDER_FILES.lock), 'a'));
      prepared = true;
    } catch (error) {
      throw new ListFileError(`${path}: cannot be created (${codeOf(error)}); nothing was changed`);
    }
  };

  /**
   * Takes proper-lockfile's lock on `.lock` (the folder `.lock.lock`, as Claude Code takes it).
   * When it is free, one mkdir takes it (the same lock on disk that proper-lockfile makes, its
   * mtime kept fresh while held); when it is held, proper-lockfile waits for it with retries and
   * takes over a stale one. Resolves to its release.
   */
  const takeLock = async (onCompromised: (error: Error) => void): Promise<() => void | Promise<void>> => {
    const lockDir = `${file(FOLDER_FILES.lock)}.lock`;
    try {
      mkdirSync(lockDir);
      // Held longer than half the stale time (a slow hook): its mtime is refreshed, as proper-lockfile does.
      const refresh = setInterval(() => {
        try {
          const now = new Date();
          utimesSync(lockDir, now, now);
        } catch (error) {
          onCompromised(error as Error);
        }
      }, stale / 2);
      refresh.unref();
      return () => {
        clearInterval(refresh);
        rmdirSync(lockDir);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new ListFileError(`${path}: cannot take the list lock (${codeOf(error)})`);
      }
    }
    return lockfile
      .lock(file(FOLDER_FILES.lock), {
        realpath: false,
        stale,
        onCompromised,
        retries: { retries: 1000, factor: 1, minTimeout: 5, maxTimeout: 40, randomize: true },
      })
      .catch((error: Error) => {
        throw new ListFileError(`${path}: cannot take the list lock (${error.message})`);
      });
  };

  /** Runs `fn` holding the list lock (and this process's queue for the folder). */
  const locked = <T>(fn: () => Promise<T>): Promise<T> =>
    queued(path, async () => {
      prepareFolder();
      let compromised: Error | undefined;
      const release = await takeLock((error) => {
        compromised = error;
      });
      try {
        const result = await fn();
        if (compromised) throw new ListFileError(`${path}: the lock was lost (${compromised.message})`);
        return result;
      } finally {
        try {
          await release();
        } catch {
          // A lock that was taken over is not ours to release.
        }
      }
    });

  /** Commits a write (under the lock): temporary files first, then renames, removals, the journal line, one folder fsync. */
  const commit = (put: readonly TaskRecord[], removed: readonly string[], highWaterMark: number): void => {
    const prepared: { temporary: string; name: string; signature: string }[] = [];
    const writes: { name: string; data: Buffer }[] = put.map((record) => ({
      name: `${record.id}.json`,
      data: Buffer.from(formatTaskFile(record), 'utf8'),
    }));
    const newHighWaterMark = Math.max(highWaterMark, ...removed.map(Number));
    // Claude Code takes a new id above the highest file name and the high-water mark: once the
    // highest tasks are gone only the mark keeps their ids from coming back.
    const highestStays = !removed.includes(String(newHighWaterMark)) && exists(file(`${newHighWaterMark}.json`));
    if (removed.length && newHighWaterMark > readHighWaterMark() && !highestStays) {
      writes.push({ name: FOLDER_FILES.highWaterMark, data: Buffer.from(String(newHighWaterMark), 'utf8') });
    }
    try {
      for (const { name, data } of writes) {
        const temporary = temporaryPath(file(name));
        const entry = { temporary, name, signature: '' };
        prepared.push(entry);
        entry.signature = signatureOf(writeDurably(temporary, data));
      }
    } catch (error) {
      for (const { temporary } of prepared) rmSync(temporary, { force: true });
      throw new ListFileError(`${path}: could not be saved (${codeOf(error)}); nothing was changed`);
    }
    const entry = {
      seq: journal.seq + 1,
      put: put.map((record) => record.id),
      removed: [...removed],
      highWaterMark: newHighWaterMark,
    };
    let renamed = 0;
    try {
      for (const { temporary, name, signature } of prepared) {
        renameSync(temporary, file(name));
        renamed += 1;
        // A rename keeps the file's inode, size and mtime: its signature is the temporary's.
        if (name !== FOLDER_FILES.highWaterMark) known.set(name, signature);
      }
      for (const id of removed) {
        unlinkSync(file(`${id}.json`));
        known.delete(`${id}.json`);
      }
      if (prepared.some(({ name }) => name === FOLDER_FILES.highWaterMark)) storedHighWaterMark = newHighWaterMark;
      journal.append(entry);
      syncFolder(path);
    } catch (error) {
      for (const { temporary } of prepared) rmSync(temporary, { force: true });
      throw new ListFileError(
        renamed === 0
          ? `${path}: could not be saved (${codeOf(error)}); nothing was changed`
          : `${path}: the change was not saved whole (${codeOf(error)}); it is not acknowledged`,
      );
    }
    for (const record of put) highestId = Math.max(highestId, Number(record.id));
    journal.compactIfNeeded();
  };

  // A v1 list file is converted before the folder is first used (and tried again after a failure).
  let converted = options.v1File === undefined;
  const ready = async (): Promise<void> => {
    if (converted) return;
    await migrateV1(options.v1File as string, path, locked, maxDepth);
    converted = true;
  };

  const tasks: TaskStore = {
    async load() {
      await ready();
      return loadAll();
    },
    async changesSince(seq) {
      await ready();
      return seq < 0 ? undefined : deltaSince(seq, false);
    },
    async transact<R>(seq: number, fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>) {
      await ready();
      return locked(async () => {
        const catchUp = (seq >= 0 ? deltaSince(seq, true) : undefined) ?? loadAll();
        const { write, result } = await fn(catchUp);
        if (write && (write.put.length || write.removed.length)) commit(write.put, write.removed, write.highWaterMark);
        return { result, seq: journal.seq };
      });
    },
    watch(onChange) {
      startWatching();
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };

  return {
    path,
    tasks,
    todo: wholeStateStore<TodoSnapshot>(file(FOLDER_FILES.todo), locked, ready),
    todoWrite: wholeStateStore<TodoWriteState>(file(FOLDER_FILES.todoWrite), locked, ready),
    watch(onChange) {
      return tasks.watch?.(onChange) ?? (() => {});
    },
    close() {
      watcher?.close();
      watcher = undefined;
      if (wakeUp) clearTimeout(wakeUp);
      listeners.clear();
    },
  };
}

/** A family's whole state in one file of the folder, changed under the list lock. */
function wholeStateStore<T>(
  path: string,
  locked: <R>(fn: () => Promise<R>) => Promise<R>,
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
      return locked(async () => {
        const { next, result } = await fn(read());
        if (next !== undefined) {
          try {
            replaceFile(path, Buffer.from(`${JSON.stringify(next)}\n`, 'utf8'));
            syncFolder(join(path, '..'));
          } catch (error) {
            throw new ListFileError(`${path}: could not be saved (${codeOf(error)}); the previous version is kept`);
          }
        }
        return result;
      });
    },
  };
}
