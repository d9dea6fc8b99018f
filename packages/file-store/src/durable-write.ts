/**
 * Durable file writes: a temporary file written whole (short writes continued), fsync, rename;
 * then one fsync of the folder makes the renames durable. When a step fails the temporary file is
 * removed and the previous file stays byte for byte as it was. Every call goes through disk.ts,
 * off the event loop.
 */
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { disk } from './disk.js';

/** The error code of a failed file operation, for a message that must not quote a file. */
export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}

/** Writes every byte of `data` to `fd`, continuing short writes; throws when a write cannot go on. */
export async function writeAll(fd: number, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const written = await disk.write(fd, data, offset, data.length - offset);
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
export async function writeDurably(path: string, data: Buffer): Promise<Stats> {
  let fd: number | undefined;
  try {
    fd = await disk.open(path, 'wx', 0o644);
    await writeAll(fd, data);
    await disk.fsync(fd);
    const stats = await disk.fstat(fd);
    await disk.close(fd);
    fd = undefined;
    return stats;
  } catch (error) {
    if (fd !== undefined) {
      try {
        await disk.close(fd);
      } catch {
        // The write failed already; the close adds nothing.
      }
    }
    await removeIfPossible(path);
    throw error;
  }
}

/**
 * Replaces `path` with `data` atomically: temporary file, full write, fsync, rename. The rename
 * is durable once the folder is fsynced (`syncFolder`). @throws the file system's error, the
 * previous file untouched.
 */
export async function replaceFile(path: string, data: Buffer): Promise<void> {
  const temporary = temporaryPath(path);
  await writeDurably(temporary, data);
  try {
    await disk.rename(temporary, path);
  } catch (error) {
    await removeIfPossible(temporary);
    throw error;
  }
}

/**
 * Removes the temporary file `path` after a failure, when it can: a failure of the removal itself
 * (its folder could not be made, or is gone: ENOTDIR, EACCES) must not hide the failure that
 * brought the caller here. A file left under its temporary name is one nothing reads, and the
 * cleanups of dead temporaries remove it later.
 */
export async function removeIfPossible(path: string): Promise<void> {
  try {
    await disk.remove(path);
  } catch {
    // Left as a dead temporary (see above).
  }
}

/** Makes the renames and removals in `folder` durable. */
export async function syncFolder(folder: string): Promise<void> {
  const fd = await disk.open(folder, 'r');
  try {
    await disk.fsync(fd);
  } finally {
    await disk.close(fd);
  }
}
