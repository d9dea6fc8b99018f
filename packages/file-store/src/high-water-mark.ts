/**
 * A list folder's `.highwatermark` as one holder reads it: the highest id ever handed out, kept by
 * Claude Code (and by raider once the highest tasks are gone), so that a deleted task's id never
 * comes back. Read again only when the folder's watch says it may have changed, or when asked to.
 */
import { join } from 'node:path';
import { disk } from './disk.js';
import { codeOf } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';
import type { FolderWatch } from './folder-watch.js';
import { MAX_TASK_ID } from './task-file.js';

/** The high-water mark file of one list folder, as one holder last read or wrote it. */
export class HighWaterMarkFile {
  /** The highest mark this holder read or wrote: a mark never goes down. */
  private stored = 0;

  /**
   * @param folder the list folder
   * @param folderWatch its watch, which says when the file may have changed
   * @param report told (by path) of a file that holds no whole number, or one beyond the highest id
   */
  constructor(
    private readonly folder: string,
    private readonly folderWatch: FolderWatch,
    private readonly report: (message: string) => void,
  ) {}

  /**
   * The mark: read again when it may have changed, or always (`fresh`) under the lock (the watch's
   * event for a mark Claude Code raised, its reset, its delete, may not have come yet, and a new id
   * must be above it). A missing file, or one that holds no whole number (then reported), keeps
   * the mark this holder knew; a number beyond MAX_TASK_ID makes it MAX_TASK_ID (reported), so
   * every id is taken and creates are refused.
   * @throws ListFileError when the file exists and cannot be read.
   */
  async read(fresh = false): Promise<number> {
    if (!fresh && !this.folderWatch.highWaterMarkDirty) return this.stored;
    this.folderWatch.highWaterMarkDirty = !this.folderWatch.active;
    const path = join(this.folder, FOLDER_FILES.highWaterMark);
    let text: string;
    try {
      text = await disk.readText(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.stored;
      throw new ListFileError(`${path}: cannot be read (${codeOf(error)})`);
    }
    const trimmed = text.trim();
    const value = Number(trimmed);
    if (Number.isSafeInteger(value) && value >= 0) this.stored = Math.max(this.stored, value);
    else if (/^[0-9]+$/.test(trimmed)) {
      // Beyond the highest id a list hands out: every id is taken, so creates are refused (never a loop, never a reused id).
      this.stored = MAX_TASK_ID;
      this.report(
        `${path}: ${trimmed.length > 20 ? `a ${trimmed.length}-digit number` : trimmed} is beyond ${MAX_TASK_ID}, the highest id a list hands out; left as it is, and no new id is handed out`,
      );
    } else this.report(`${path}: expected a whole number; left as it is`);
    return this.stored;
  }

  /** Records `value` as the mark this holder just wrote to the file (its commit made it visible). */
  wrote(value: number): void {
    this.stored = value;
  }
}
