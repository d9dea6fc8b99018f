/**
 * The errors a change to a list folder ends with when "nothing was changed" is not the whole
 * story: a task another writer deleted meanwhile, and a change that may have been saved. Shared by
 * the task store's commit and the other families' whole-state files.
 */
import { ListFileError } from './errors.js';

/**
 * The error of a change to the task file at `path` that another writer deleted meanwhile: nothing
 * was changed, and the task is not written back from what this holder remembers.
 */
export function vanished(path: string): ListFileError {
  return new ListFileError(
    `${path}: was deleted by another writer while this change was being made (Claude Code deletes a task, and clears a list whose tasks are all completed, without raider's change feed); nothing was changed, and the task is not written back`,
  );
}

/**
 * `error` (a ListFileError) marked `mayHaveBeenSaved: true`, as TaskStore's contract asks of a
 * change that failed after a step was visible: the caller must read the list again before it
 * answers. Returns the same object.
 */
export function mayHaveBeenSaved(error: ListFileError): ListFileError {
  return Object.assign(error, { mayHaveBeenSaved: true });
}
