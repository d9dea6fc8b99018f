// The figures the fault tests measure (for the README), printed when RAIDER_TEST_FIGURES=1.
// Tests never assert them beyond the bounds the package promises.

/** Prints `name: ms` to stderr when RAIDER_TEST_FIGURES is set. */
export function figure(name: string, ms: number): void {
  if (process.env.RAIDER_TEST_FIGURES) process.stderr.write(`figure: ${name}: ${(ms / 1000).toFixed(2)} s\n`);
}

/** Prints `name: what` to stderr when RAIDER_TEST_FIGURES is set (a count, not a time). */
export function tally(name: string, what: string): void {
  if (process.env.RAIDER_TEST_FIGURES) process.stderr.write(`figure: ${name}: ${what}\n`);
}

/** `promise`'s value, or `'still waiting'` once `ms` have passed (a call that hangs fails its test, not the run). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<'still waiting'>((resolve) => {
      timer = setTimeout(() => resolve('still waiting'), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
