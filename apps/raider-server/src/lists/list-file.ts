/**
 * Durable lists: one human-readable JSON file per list under the data dir, shared by every
 * conversation and process that names the list. Every change is a transaction: a cross-process
 * lock (proper-lockfile), read the current file, apply, write a temporary file, fsync, rename.
 * A change is acknowledged only after the rename. A file that cannot be read or parsed is never
 * overwritten. A lock left by a killed process goes stale and is taken over.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeSync,
} from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import type { ListStore, Transaction } from '@raider/todo-tools';
import lockfile from 'proper-lockfile';
import { ListFileError, ListIdError } from '../errors.js';

/** The families' sections of a list file. */
export type Section = 'tasks' | 'todo' | 'todo_write';
const SECTIONS: readonly Section[] = ['tasks', 'todo', 'todo_write'];

/** The longest file name most file systems take, in bytes (ext4, tmpfs, APFS, NTFS: 255). */
const MAX_FILE_NAME_BYTES = 255;

const SAFE = /^[A-Za-z0-9_-]$/;

/**
 * The file name a list id maps to: characters other than letters, digits, `_` and `-` (and a
 * leading dot) are percent-encoded, so distinct ids never share a file.
 * @throws ListIdError for an id that would escape the data dir: empty, `.` or `..`, with a path
 * separator or NUL, or absolute; or longer than 200 characters.
 */
export function listFileName(id: string): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..' || /[/\\\0]/.test(id) || isAbsolute(id)) {
    throw new ListIdError(
      `list id ${JSON.stringify(id)}: expected a name without path separators, NUL, "." or "..", received one that would escape the data dir`,
    );
  }
  if (id.length > 200) throw new ListIdError(`list id: expected at most 200 characters, received ${id.length}`);
  let name = '';
  for (const char of id) {
    if (SAFE.test(char) || (char === '.' && name !== '')) name += char;
    else
      name += [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  const file = `${name}.json`;
  // Beside the file go its lock and temporary files (`.lock`, `.<pid>.<n>.tmp`): leave them room.
  const bytes = Buffer.byteLength(file) + 32;
  if (bytes > MAX_FILE_NAME_BYTES) {
    throw new ListIdError(
      `list id: expected a name whose file name fits in ${MAX_FILE_NAME_BYTES} bytes (with room for its lock), received one of ${bytes} bytes (${id.length} characters)`,
    );
  }
  return file;
}

/** The path of a list's file, checked to be inside the data dir. */
export function listFilePath(dataDir: string, id: string): string {
  const dir = resolve(dataDir);
  const path = join(dir, listFileName(id));
  const rel = relative(dir, path);
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new ListIdError(`list id ${JSON.stringify(id)} escapes the data dir`);
  return path;
}

/** The default list of a project: its folder's name and a hash of its path (`my-app-1a2b3c4d`). */
export function projectListId(projectDir: string): string {
  const abs = resolve(projectDir);
  const name = basename(abs).replace(/[^A-Za-z0-9_-]/g, '_') || 'root';
  return `${name}-${createHash('sha256').update(abs).digest('hex').slice(0, 8)}`;
}

type Document = Record<string, unknown> & { list?: string; updatedAt?: string };

/** The error code of a failed file operation, for a message that must not quote the file. */
const codeOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/**
 * Reads a list file: undefined when it does not exist; ListFileError when it cannot be used (it is
 * then left exactly as it is). A symbolic link is refused (its target's content is never read into
 * a list), a UTF-8 byte order mark is accepted, and no message quotes the file's content.
 */
function readDocument(path: string): Document | undefined {
  let text: string;
  try {
    if (lstatSync(path).isSymbolicLink()) {
      throw new ListFileError(`${path}: is a symbolic link; a list file must be a regular file: replace or remove it`);
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof ListFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ListFileError(`${path}: cannot be read (${codeOf(error)})`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ListFileError(`${path}: not valid JSON (${text.length} characters); fix or remove the file`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new ListFileError(
      `${path}: expected a JSON object, received ${Array.isArray(doc) ? 'an array' : doc === null ? 'null' : typeof doc}; fix or remove the file`,
    );
  }
  for (const section of SECTIONS) {
    const value = (doc as Document)[section];
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
      throw new ListFileError(
        `${path}: its "${section}" section: expected an object, received ${kind}; fix or remove the file`,
      );
    }
  }
  return doc as Document;
}

/**
 * The text of a list file: readable by a person (one line per key of the top two levels and per
 * task or item) and within a small factor of its compact JSON however deep a value nests (each
 * task is written compact on its line, so indentation never grows with nesting).
 */
export function formatDocument(doc: unknown): string {
  const lines: string[] = [];
  const write = (value: unknown, indent: string, prefix: string, suffix: string, depth: number) => {
    const compact = depth >= 3 || typeof value !== 'object' || value === null;
    const entries = compact
      ? []
      : Array.isArray(value)
        ? value.map((item) => ['', item] as const)
        : Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (compact || entries.length === 0) {
      lines.push(`${indent}${prefix}${JSON.stringify(value) ?? 'null'}${suffix}`);
      return;
    }
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    lines.push(`${indent}${prefix}${open}`);
    entries.forEach(([key, item], i) => {
      const keyText = Array.isArray(value) ? '' : `${JSON.stringify(key)}: `;
      write(item, `${indent}  `, keyText, i < entries.length - 1 ? ',' : '', depth + 1);
    });
    lines.push(`${indent}${close}${suffix}`);
  };
  write(doc, '', '', '', 0);
  return `${lines.join('\n')}\n`;
}

let temporaries = 0;

/** Writes every byte of `data` to `fd`, continuing short writes; throws when a write cannot go on. */
function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) {
    const written = writeSync(fd, data, offset, data.length - offset);
    if (!(written > 0)) throw Object.assign(new Error('a write made no progress'), { code: 'EIO' });
    offset += written;
  }
}

/**
 * Writes `doc` to `path` atomically and durably: a temporary file written whole (short writes
 * continued), fsync, rename, fsync of the folder. When any step fails (a full disk, an I/O error,
 * a read-only file system) the temporary file is removed, the previous file stays byte for byte as
 * it was, and a ListFileError says so: the change is not acknowledged.
 */
function writeDocument(path: string, doc: Document): void {
  temporaries += 1;
  const temporary = `${path}.${process.pid}.${temporaries}.tmp`;
  const data = Buffer.from(formatDocument(doc), 'utf8');
  let fd: number | undefined;
  let renamed = false;
  try {
    fd = openSync(temporary, 'wx', 0o644);
    writeAll(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
    renamed = true;
    const dir = openSync(resolve(path, '..'), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch (error) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // The write failed already; the close adds nothing.
      }
    }
    if (!renamed) rmSync(temporary, { force: true });
    throw new ListFileError(
      renamed
        ? `${path}: written but not made durable (${codeOf(error)}); the change may not survive a crash`
        : `${path}: could not be saved (${codeOf(error)}); the previous version is kept and nothing was changed`,
    );
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

const swept = new Set<string>();

/** Removes temporary files a killed writer left beside `path` (once per file and process, under the lock). */
function sweepTemporaries(path: string): void {
  if (swept.has(path)) return;
  swept.add(path);
  const dir = resolve(path, '..');
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dir)) {
    const pid = Number(/^(\d+)\.\d+\.tmp$/.exec(name.slice(prefix.length))?.[1]);
    if (name.startsWith(prefix) && pid && pid !== process.pid && !alive(pid)) rmSync(join(dir, name), { force: true });
  }
}

// One transaction at a time per file within this process (the file lock orders processes).
const inProcess = new Map<string, Promise<unknown>>();

/** Options of a list file. */
export interface ListFileOptions {
  /** A lock untouched this long is stale (its holder died) and is taken over; at least 2000 ms. */
  staleMs?: number;
}

/** One list's file, and a store per family section of it. */
export interface ListFile {
  readonly id: string;
  readonly path: string;
  store<T>(section: Section): ListStore<T>;
}

/** Opens (without touching the disk) the file of list `id` under `dataDir`. @throws ListIdError */
export function openListFile(dataDir: string, id: string, options: ListFileOptions = {}): ListFile {
  const path = listFilePath(dataDir, id);
  const stale = Math.max(2000, options.staleMs ?? 2000);

  const transact = async <T, R>(
    section: Section,
    fn: (current: T | undefined) => Transaction<T, R> | Promise<Transaction<T, R>>,
  ): Promise<R> => {
    mkdirSync(resolve(path, '..'), { recursive: true });
    let compromised: Error | undefined;
    const release = await lockfile
      .lock(path, {
        realpath: false,
        stale,
        retries: { retries: 1000, factor: 1, minTimeout: 5, maxTimeout: 40, randomize: true },
        onCompromised: (error) => {
          compromised = error;
        },
      })
      .catch((error: Error) => {
        throw new ListFileError(`${path}: cannot take the lock (${error.message})`);
      });
    try {
      sweepTemporaries(path);
      const doc = readDocument(path);
      const { next, result } = await fn(doc?.[section] as T | undefined);
      if (next !== undefined) {
        if (compromised)
          throw new ListFileError(`${path}: the lock was lost (${compromised.message}); nothing written`);
        writeDocument(path, { ...doc, list: id, updatedAt: new Date().toISOString(), [section]: next });
      }
      return result;
    } finally {
      await release().catch(() => {});
    }
  };

  return {
    id,
    path,
    store<T>(section: Section): ListStore<T> {
      return {
        async load() {
          return readDocument(path)?.[section] as T | undefined;
        },
        transact<R>(fn: (current: T | undefined) => Transaction<T, R> | Promise<Transaction<T, R>>): Promise<R> {
          const previous = inProcess.get(path) ?? Promise.resolve();
          const run = previous.then(() => transact(section, fn));
          const tail = run.catch(() => undefined);
          inProcess.set(path, tail);
          void tail.then(() => {
            if (inProcess.get(path) === tail) inProcess.delete(path);
          });
          return run;
        },
      };
    },
  };
}

/**
 * Calls `onChange(fileName)` when a list file in `dataDir` changes (another process wrote it, say),
 * so a board or a resource subscription hears of changes made elsewhere. Returns a function that
 * stops watching. A data dir that cannot be watched is not an error: nothing is called then.
 */
export function watchLists(dataDir: string, onChange: (fileName: string) => void): () => void {
  try {
    mkdirSync(dataDir, { recursive: true });
    const watcher = watch(dataDir, (_event: string, name: string | Buffer | null) => {
      const file = name?.toString();
      if (file?.endsWith('.json')) onChange(file);
    });
    watcher.on('error', () => watcher.close());
    watcher.unref();
    return () => watcher.close();
  } catch {
    return () => {};
  }
}
