/**
 * A queue that runs async functions one after another, in the order they were given; a failing
 * one does not stop those after it. Each caller gets its own function's outcome.
 */
export function serial(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
