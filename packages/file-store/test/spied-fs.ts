// node:fs for the fault tests: the functions they make fail are spies over the real ones
// (vi.fn(real)), which pass every call through until a test says otherwise (mockImplementationOnce).
// A test file mocks node:fs with it, importing it inside the factory (vi.mock is hoisted above imports):
//   vi.mock('node:fs', async (importOriginal) =>
//     (await import('../test/spied-fs.js')).spiedFs(await importOriginal(), ['openSync', 'writeSync']));
//
// The store calls node:fs's callback form (src/disk.ts: off the event loop), so the spy of a
// synchronous function (`writeSync`) stands for that operation in either form: its callback twin
// (`write`) is routed through the spy, which decides what the call does (the real work, a failure,
// a short write), and its callback is called on the next tick with what the spy returned or threw.
// A test that wants the callback form itself (a slow disk) names it (`fsync`): it is then a spy of
// its own, over the real callback function.
import { vi } from 'vitest';

type Fs = typeof import('node:fs');
type AnyFunction = (...args: unknown[]) => unknown;

/** The callback form of `xSync` (`x`) called through the spy `spy`. */
function routedThrough(spy: AnyFunction): AnyFunction {
  return (...args: unknown[]) => {
    const callback = args.pop() as (error: unknown, value?: unknown) => void;
    let value: unknown;
    try {
      value = spy(...args);
    } catch (error) {
      process.nextTick(callback, error);
      return;
    }
    process.nextTick(callback, null, value);
  };
}

/**
 * `real` (node:fs itself) with each of `names` a spy that calls the real function; the callback
 * twin of each synchronous one named (`write` for `writeSync`), unless named too, goes through its spy.
 */
export function spiedFs(real: Fs, names: readonly (keyof Fs)[]): Fs {
  const spies: Record<string, AnyFunction> = Object.fromEntries(
    names.map((name) => [name, vi.fn(real[name] as AnyFunction)]),
  );
  const routed: Record<string, AnyFunction> = {};
  for (const name of names) {
    const twin = String(name).replace(/Sync$/, '');
    if (twin !== name && !(twin in spies) && typeof real[twin as keyof Fs] === 'function') {
      routed[twin] = routedThrough(spies[name] as AnyFunction);
    }
  }
  return { ...real, ...routed, ...spies };
}
