/**
 * The visible steps of one commit of the task store, each with its way back: a prepared file
 * linked or renamed in, a task file removed, the journal line. The previous version of a file
 * replaced or removed is kept under a hidden name until the commit is whole, so that a commit that
 * fails half way is taken back and "nothing was changed" is true; when it cannot be, the error
 * says the change may have been saved.
 */
import { join } from 'node:path';
import { mayHaveBeenSaved, vanished } from './change-errors.js';
import { disk, exists } from './disk.js';
import { codeOf, syncFolder, temporaryPath } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';
import { isLockLost } from './list-lock.js';
import type { RecordKeys } from './task-file.js';

/** A file prepared for a commit: written whole and fsynced under a temporary name. */
export interface PreparedFile {
  temporary: string;
  name: string;
  signature: string;
  /** The optional keys of the record written (0 for a file that is not a task's). */
  keys: RecordKeys;
  /** True for a task file this holder has not seen (a create): it must not replace a file that exists. */
  fresh: boolean;
}

/** How one visible step of a commit is taken back when a later step fails. */
type Undo = () => Promise<void>;

/** The steps one commit made visible in a list folder, and how to take them back. */
export class CommitSteps {
  /** True once a step is visible to readers of the folder. */
  visible = false;
  private readonly undo: Undo[] = [];
  private readonly backups: string[] = [];

  /**
   * @param folder the list folder
   * @param dirty the folder watch's set of task files to read again (a file found changed or gone is added)
   */
  constructor(
    private readonly folder: string,
    private readonly dirty: Set<string>,
  ) {}

  /**
   * Makes one prepared file visible. A new task file is linked in, which fails when a file of
   * that name exists (a holder that lost its lock never writes over another's create); a file
   * that exists is renamed over, its previous version kept under a hidden name until the commit
   * is whole (to be put back if it is not).
   * @throws ListFileError when a new task's file exists already or a replaced one vanished; the
   * file system's error when a step fails.
   */
  async put(entry: PreparedFile): Promise<void> {
    const path = join(this.folder, entry.name);
    if (entry.fresh && (await linkFresh(entry, path))) {
      this.undo.push(() => disk.unlink(path));
      this.visible = true;
      return;
    }
    const backup = temporaryPath(path);
    try {
      await disk.link(path, backup);
      this.backups.push(backup);
      this.undo.push(() => disk.rename(backup, path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (entry.name !== FOLDER_FILES.highWaterMark) {
        // Deleted since it was checked under its lock (by a writer that ignores the lock): a task
        // deleted is never written back.
        this.dirty.add(entry.name);
        throw vanished(path);
      }
      this.undo.push(() => disk.unlink(path));
    }
    await disk.rename(entry.temporary, path);
    this.visible = true;
  }

  /**
   * Removes the task file `name`, kept under a hidden name until the commit is whole (to be put
   * back if it is not). A file gone already is fine.
   */
  async remove(name: string): Promise<void> {
    const path = join(this.folder, name);
    const backup = temporaryPath(path);
    try {
      await disk.rename(path, backup);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.visible = true;
        return; // Gone already.
      }
      throw error;
    }
    this.backups.push(backup);
    this.undo.push(() => disk.rename(backup, path));
    this.visible = true;
  }

  /** Records a visible step made elsewhere (the journal's line) and how it is taken back. */
  made(undo: Undo): void {
    this.visible = true;
    this.undo.push(undo);
  }

  /** Removes the previous versions kept: the commit is whole, or was taken back. */
  async dropBackups(): Promise<void> {
    for (const backup of this.backups) await disk.remove(backup);
  }

  /**
   * The error of a commit that failed at `error`: the visible steps taken back (newest first) and
   * "nothing was changed"; or, when the lock was lost after a step was visible or a step cannot be
   * taken back, an error that says the change may have been saved.
   */
  async failure(error: unknown): Promise<ListFileError> {
    if (isLockLost(error)) {
      if (!this.visible) return new ListFileError(`${error.message}; nothing was changed`);
      // Not ours to take back: the new holder may have written since.
      return mayHaveBeenSaved(new ListFileError(`${error.message}; it may have been saved, in part or whole`));
    }
    // The store's own refusal (a create that found its file taken) says what happened already.
    const own = ListFileError.isInstance(error) ? (error as ListFileError) : undefined;
    if (own && !this.visible) return own;
    const code = own ? 'another writer' : codeOf(error);
    let undone = true;
    for (const step of this.undo.reverse()) {
      try {
        await step();
      } catch {
        undone = false;
      }
    }
    if (undone) {
      try {
        await syncFolder(this.folder);
      } catch {
        // What is visible is the list as it was; a crash right now could still show the change.
      }
      return own ?? new ListFileError(`${this.folder}: could not be saved (${code}); nothing was changed`);
    }
    return mayHaveBeenSaved(
      new ListFileError(`${this.folder}: the change was made in part and could not be taken back (${code})`),
    );
  }
}

/**
 * Links a new task file in, never over one that exists. False when the file system has no hard
 * links (the caller renames then, after checking that no file of that name exists).
 */
async function linkFresh(entry: PreparedFile, path: string): Promise<boolean> {
  try {
    await disk.link(entry.temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new ListFileError(
        `${path}: exists already, though this list's lock was held for the create (another process wrote it without the lock); nothing was changed`,
      );
    }
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    if (await exists(path)) {
      throw new ListFileError(
        `${path}: exists already, though this list's lock was held for the create (another process wrote it without the lock); nothing was changed`,
      );
    }
    return false;
  }
  await disk.remove(entry.temporary);
  return true;
}
