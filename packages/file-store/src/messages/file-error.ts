/** How a failed step of a message call is told: the file, what went wrong, and what it means for the caller. */
import { codeOf } from '../durable-write.js';
import { ListFileError } from '../errors.js';

/**
 * `error` as a ListFileError of `path` that says what the failed step means for the caller
 * (`outcome`: "nothing was sent", "nothing was taken", …). A ListFileError keeps its own message,
 * which names its file already; any other error is told by its code.
 */
export function fileError(path: string, error: unknown, outcome: string): ListFileError {
  if (ListFileError.isInstance(error)) return new ListFileError(`${(error as Error).message}; ${outcome}`);
  return new ListFileError(`${path}: ${codeOf(error)}; ${outcome}`);
}
