/**
 * Putting a question to an Asker while the tool call waits for it: the call's signal and the
 * timeout bound the wait, progress keeps a client's idle timer from cutting the call, and every
 * outcome that is not an answer becomes its error result. SDK-neutral: each adapter says what it
 * knows of the call (its signal, its id, how to send it progress).
 */
import { callContext } from './context.js';
import { AskError } from './errors.js';
import { duration } from './outcomes.js';
import { failure, type ToolResult } from './tool-result.js';
import type { Asker } from './types.js';

/** How long the person has to answer by default: 30 minutes (the SDKs' 60 s default cuts people off). */
export const DEFAULT_TIMEOUT_MS = 30 * 60_000;

/** How often progress goes out while a question waits, by default. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 15_000;

/** The message of every progress notification sent while a question waits. */
export const WAITING_MESSAGE = 'Waiting for the user to answer';

/** What an adapter knows of the tool call that asks. */
export interface ToolCall {
  /** Aborts when the client cancels the call or the connection closes. */
  signal: AbortSignal;
  /** The JSON-RPC id of the tools/call request. */
  requestId: string | number;
  /** Sends one progress notification for the call; undefined when the client gave no progress token. */
  sendProgress: ((progress: number, message: string) => Promise<void>) | undefined;
}

/** How a question waits. */
export interface WaitOptions {
  timeoutMs: number;
  progressIntervalMs: number;
}

/** Resolves or rejects with `promise`, or rejects with the signal's reason when it aborts first. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  promise.catch(() => {}); // The loser of the race must not become an unhandled rejection.
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The error result of anything thrown while asking: an AskError's outcome (its message as the
 * detail when it has one), any other error as `failed` with its message.
 */
export function thrownOutcome(error: unknown, timeoutMs: number): ToolResult {
  if (AskError.isInstance(error)) {
    if (error.code === 'timeout') return failure('timeout', duration(timeoutMs));
    return failure(error.code, error.message === error.code ? undefined : error.message);
  }
  return failure('failed', error instanceof Error ? error.message : String(error));
}

/**
 * Runs one question with `asker` while the call waits: bounds the wait by the timeout and the
 * call's signal (an asker that ignores its signal still cannot block past either), keeps a
 * progress token alive, and turns every outcome that is not an answer into its error result.
 * The call's id is readable through `callContext` meanwhile.
 */
export async function askWhileWaiting(
  asker: Asker,
  call: ToolCall,
  options: WaitOptions,
  ask: (asker: Asker, signal: AbortSignal) => Promise<ToolResult>,
): Promise<ToolResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([call.signal, timeout]);
  const stopProgress = keepAlive(call.sendProgress, options.progressIntervalMs);
  try {
    return await callContext.run({ requestId: call.requestId }, () => raceSignal(ask(asker, signal), signal));
  } catch (error) {
    if (call.signal.aborted) return failure('aborted');
    if (timeout.aborted) return failure('timeout', duration(options.timeoutMs));
    return thrownOutcome(error, options.timeoutMs);
  } finally {
    stopProgress();
  }
}

/**
 * Sends increasing progress every `intervalMs` through `sendProgress` (nothing without one) until
 * the returned function is called, `bounds.signal` aborts or `bounds.untilMs` have passed.
 * A failed send is ignored: progress is a courtesy, never the call's outcome.
 */
export function keepAlive(
  sendProgress: ToolCall['sendProgress'],
  intervalMs: number,
  bounds: { signal?: AbortSignal; untilMs?: number } = {},
): () => void {
  if (!sendProgress) return () => {};
  let progress = 0;
  const timer = setInterval(() => {
    progress += 1;
    sendProgress(progress, WAITING_MESSAGE).catch(() => {});
  }, intervalMs);
  timer.unref?.();
  const deadline = bounds.untilMs === undefined ? undefined : setTimeout(() => stop(), bounds.untilMs);
  deadline?.unref?.();
  const stop = () => {
    clearInterval(timer);
    if (deadline) clearTimeout(deadline);
    bounds.signal?.removeEventListener('abort', stop);
  };
  bounds.signal?.addEventListener('abort', stop, { once: true });
  if (bounds.signal?.aborted) stop();
  return stop;
}
