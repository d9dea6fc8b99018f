/**
 * The file system calls of the store, off the event loop: each is node:fs's callback form (run on
 * libuv's thread pool) as a promise, so that a slow disk delays the call that waits for it and
 * never the event loop, where every other session's calls and timers run.
 *
 * One call here is one system call, as each synchronous call it replaced was: the store's steps
 * keep their order, their count and their fencing (a step that must not be interleaved with
 * another of the same holder is queued, see one-at-a-time.ts and ListLock.run). The callback form,
 * rather than node:fs/promises, is what the fault tests can reach: they mock `node:fs`, and
 * test/spied-fs.ts routes each callback call through the spy of its synchronous twin.
 */
import {
  type BigIntStats,
  close,
  fstat,
  fsync,
  ftruncate,
  link,
  lstat,
  type MakeDirectoryOptions,
  mkdir,
  open,
  read,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  type Stats,
  stat,
  unlink,
  utimes,
  write,
  writeFile,
} from 'node:fs';

/** Settles a promise from a node:fs callback. */
function settle<T>(resolve: (value: T) => void, reject: (error: unknown) => void) {
  return (error: NodeJS.ErrnoException | null, value?: T) => (error ? reject(error) : resolve(value as T));
}

/** The calls, each resolving as its synchronous twin returns and rejecting with the same error. */
export const disk = {
  open: (path: string, flags: string | number, mode?: number) =>
    new Promise<number>((resolve, reject) => open(path, flags, mode, settle(resolve, reject))),
  close: (fd: number) => new Promise<void>((resolve, reject) => close(fd, settle(resolve, reject))),
  /** Writes from `offset` of `data` (`length` bytes) at the file's position; resolves to the bytes written. */
  write: (fd: number, data: Buffer, offset: number, length: number, position?: number) =>
    new Promise<number>((resolve, reject) =>
      position === undefined
        ? write(fd, data, offset, length, settle(resolve, reject))
        : write(fd, data, offset, length, position, settle(resolve, reject)),
    ),
  /** Reads into `buffer` from `offset` (`length` bytes) at `position`; resolves to the bytes read. */
  read: (fd: number, buffer: Buffer, offset: number, length: number, position: number) =>
    new Promise<number>((resolve, reject) => read(fd, buffer, offset, length, position, settle(resolve, reject))),
  fsync: (fd: number) => new Promise<void>((resolve, reject) => fsync(fd, settle(resolve, reject))),
  fstat: (fd: number) => new Promise<Stats>((resolve, reject) => fstat(fd, settle(resolve, reject))),
  ftruncate: (fd: number, length: number) =>
    new Promise<void>((resolve, reject) => ftruncate(fd, length, settle(resolve, reject))),
  stat: (path: string) => new Promise<Stats>((resolve, reject) => stat(path, settle(resolve, reject))),
  /** stat with nanosecond times and 64-bit inodes (what a lock's token is made of). */
  statExact: (path: string) =>
    new Promise<BigIntStats>((resolve, reject) => stat(path, { bigint: true }, settle(resolve, reject))),
  lstat: (path: string) => new Promise<Stats>((resolve, reject) => lstat(path, settle(resolve, reject))),
  lstatExact: (path: string) =>
    new Promise<BigIntStats>((resolve, reject) => lstat(path, { bigint: true }, settle(resolve, reject))),
  readdir: (path: string) => new Promise<string[]>((resolve, reject) => readdir(path, settle(resolve, reject))),
  readText: (path: string) => new Promise<string>((resolve, reject) => readFile(path, 'utf8', settle(resolve, reject))),
  /** Creates `path` with `data`; `flag` `wx` fails when it exists. */
  writeNew: (path: string, data: string, mode: number) =>
    new Promise<void>((resolve, reject) => writeFile(path, data, { flag: 'wx', mode }, settle(resolve, reject))),
  /** Makes the folder `path` (and, `recursive`, those above it; then one that exists is no error). */
  mkdir: (path: string, options: MakeDirectoryOptions = {}) =>
    new Promise<void>((resolve, reject) =>
      mkdir(path, options, (error: NodeJS.ErrnoException | null) => (error ? reject(error) : resolve())),
    ),
  rmdir: (path: string) => new Promise<void>((resolve, reject) => rmdir(path, settle(resolve, reject))),
  rename: (from: string, to: string) =>
    new Promise<void>((resolve, reject) => rename(from, to, settle(resolve, reject))),
  link: (from: string, to: string) => new Promise<void>((resolve, reject) => link(from, to, settle(resolve, reject))),
  unlink: (path: string) => new Promise<void>((resolve, reject) => unlink(path, settle(resolve, reject))),
  /** Removes the file `path`; one that does not exist is no error (rmSync's `force`). */
  remove: (path: string) => new Promise<void>((resolve, reject) => rm(path, { force: true }, settle(resolve, reject))),
  /** Sets the access and modification times (seconds since the epoch). */
  utimes: (path: string, atime: number, mtime: number) =>
    new Promise<void>((resolve, reject) => utimes(path, atime, mtime, settle(resolve, reject))),
};

/** True when `path` exists (follows links, as statSync). */
export async function exists(path: string): Promise<boolean> {
  try {
    await disk.stat(path);
    return true;
  } catch {
    return false;
  }
}
