/**
 * The `beforeTask` hook, as Claude Code runs its TaskCreated and TaskCompleted hooks: a text
 * refuses the call, a hook that throws refuses it with its message, and a call whose signal aborts
 * while the hook runs answers that nothing was changed.
 */
import type { TaskEvent, TaskItem } from '../types.js';

/** Claude Code 2.1.332's answer to a task_update interrupted while its TaskCompleted hook runs. */
export const INTERRUPTED = 'Interrupted: the task was not changed.';

/** The hook as the options give it. */
export type BeforeTask = (event: TaskEvent, item: TaskItem) => string | undefined | Promise<string | undefined>;

/** `promise`, or a rejection as soon as `signal` aborts (the promise itself goes on, unheeded). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/**
 * Runs `hook` (when there is one) for `event` on `item`; resolves to the text of a refusal, or
 * undefined to go on. A text is the refusal (an empty one says the hook blocked the call); a hook
 * that throws refuses with its message; `signal` aborted while it runs answers INTERRUPTED.
 * `replaced()` is asked once the hook is done: true when the list was cleared or replaced
 * meanwhile, which refuses the call too (it must not write into a list it did not see).
 */
export async function runBeforeTask(
  hook: BeforeTask | undefined,
  event: TaskEvent,
  item: TaskItem,
  signal: AbortSignal | undefined,
  replaced: () => boolean,
): Promise<string | undefined> {
  if (!hook) return undefined;
  let verdict: string | undefined;
  try {
    verdict = (await untilAborted(Promise.resolve(hook(event, item)), signal)) ?? undefined;
  } catch (error) {
    if (signal?.aborted) return INTERRUPTED;
    return `${event} hook failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof verdict === 'string') return verdict === '' ? `${event} hook blocked the call` : verdict;
  if (replaced()) return `The task list was cleared or replaced while the ${event} hook ran; nothing was changed`;
  return undefined;
}
