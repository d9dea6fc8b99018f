/**
 * Durable file writes: a temporary file written whole (short writes continued), fsync, rename;
 * then one fsync of the folder makes the renames durable. When a step fails the temporary file is
 * removed and the previous file stays byte for byte as it was.
 */
import { closeSync, fstatSync, fsyncSync, openSync, renameSync, rmSync, type Stats, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The error code of a failed file operation, for a message that must not quote a file. */
export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

/** Writes every byte of `data` to `fd`, continuing short writes; throws when a write cannot go on. */
export function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) {
    const written = writeSync(fd, data, offset, data.length - offset);
    if (!(written > 0)) throw Object.assign(new Error('a write made no progress'), { code: 'EIO' });
    offset += written;
  }
}

let temporaries = 0;

/**
 * The temporary file a write of `path` goes through: hidden (a leading dot, so Claude Code's
 * reader and its reset pass it by), named after the process so a sweep can tell a dead writer's.
 */
export function temporaryPath(path: string): string {
  temporaries += 1;
  return join(dirname(path), `.${basename(path)}.${process.pid}.${temporaries}.tmp`);
}

/** The pid in a temporary file's name, or undefined when `name` is not one. */
export function temporaryOwner(name: string): number | undefined {
  const match = /^\..+\.(\d+)\.\d+\.tmp$/.exec(name);
  return match ? Number(match[1]) : undefined;
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

/**
 * True for a temporary file (`temporaryPath`) a killed raider left: its process is gone, so it
 * will never be renamed in. Other names (Claude Code's `<id>.json.tmp.<8 hex>` name no process)
 * are never a dead writer's: one may be a live writer's, about to be renamed in.
 */
export function isDeadTemporary(name: string): boolean {
  const owner = temporaryOwner(name);
  return owner !== undefined && owner !== process.pid && !alive(owner);
}

/**
 * Writes `data` whole to the new file `path` and fsyncs it (not yet visible under its final name:
 * rename it there). Returns the file's stats as written. @throws the file system's error, with
 * nothing left behind.
 */
export function writeDurably(path: string, data: Buffer): Stats {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'wx', 0o644);
    writeAll(fd, data);
    fsyncSync(fd);
    const stats = fstatSync(fd);
    closeSync(fd);
    fd = undefined;
    return stats;
  } catch (error) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // The write failed already; the close adds nothing.
      }
    }
    removeIfPossible(path);
    throw error;
  }
}

/**
 * Replaces `path` with `data` atomically: temporary file, full write, fsync, rename. The rename
 * is durable once the folder is fsynced (`syncFolder`). @throws the file system's error, the
 * previous file untouched.
 */
export function replaceFile(path: string, data: Buffer): void {
  const temporary = temporaryPath(path);
  writeDurably(temporary, data);
  try {
    renameSync(temporary, path);
  } catch (error) {
    removeIfPossible(temporary);
    throw error;
  }
}

/**
 * Removes the temporary file `path` after a failure, when it can: a failure of the removal itself
 * (its folder could not be made, or is gone: ENOTDIR, EACCES) must not hide the failure that
 * brought the caller here. A file left under its temporary name is one nothing reads, and the
 * cleanups of dead temporaries remove it later.
 */
export function removeIfPossible(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Left as a dead temporary (see above).
  }
}

/** Makes the renames and removals in `folder` durable. */
export function syncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
