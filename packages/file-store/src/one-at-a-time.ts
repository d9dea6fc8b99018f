/**
 * A queue of async steps that run one after another. The store's synchronous code ran each step to
 * completion; with its I/O off the event loop, two steps of one holder (a read and a commit, two
 * checks of one lock) could interleave at every await: the steps that must not are queued here.
 */

/** Runs the functions given to it one after another, in order; a failing one does not stop the next. */
export type OneAtATime = <T>(fn: () => Promise<T>) => Promise<T>;

/** A new queue: each call runs `fn` once every function given before it has settled. */
export function oneAtATime(): OneAtATime {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
