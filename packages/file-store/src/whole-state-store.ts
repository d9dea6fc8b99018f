/**
 * The state of the list's other families (`todo`, todo_write) kept whole, one hidden file each in
 * the list folder, read without a lock and replaced under the list lock's fence.
 */
import { join } from 'node:path';
import type { ListStore, ListTransaction } from '@raider/todo-tools';
import { mayHaveBeenSaved } from './change-errors.js';
import { disk } from './disk.js';
import { codeOf, syncFolder, temporaryPath, writeDurably } from './durable-write.js';
import { ListFileError } from './errors.js';
import { isLockLost, type LockFence } from './list-lock.js';
import { readRegular } from './regular-file.js';

/**
 * A family's whole state in the file `path` of the folder, changed under the list lock (`locked`);
 * `ready` is awaited before every call. `load` is undefined while the file does not exist.
 * @throws ListFileError (from `load` and `transact`) when the file holds no JSON object, or cannot
 * be saved (see {@link saveWhole}).
 */
export function wholeStateStore<T>(
  path: string,
  locked: <R>(fn: (fence: LockFence) => Promise<R>) => Promise<R>,
  ready: () => Promise<void>,
): ListStore<T> {
  const read = async (): Promise<T | undefined> => {
    const content = await readRegular(path);
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
        const { next, result } = await fn(await read());
        if (next !== undefined) await saveWhole(path, Buffer.from(`${JSON.stringify(next)}\n`, 'utf8'), fence);
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
async function saveWhole(path: string, data: Buffer, fence: LockFence): Promise<void> {
  const temporary = temporaryPath(path);
  try {
    await writeDurably(temporary, data);
    await fence.check();
    await disk.rename(temporary, path);
  } catch (error) {
    await disk.remove(temporary);
    if (isLockLost(error)) throw new ListFileError(`${error.message}; the previous version is kept`);
    throw new ListFileError(`${path}: could not be saved (${codeOf(error)}); the previous version is kept`);
  }
  try {
    await syncFolder(join(path, '..'));
    await fence.check();
  } catch (error) {
    const why = isLockLost(error) ? error.message : `${path}: its folder could not be synced (${codeOf(error)})`;
    throw mayHaveBeenSaved(new ListFileError(`${why}; the new version may have been saved`));
  }
}
