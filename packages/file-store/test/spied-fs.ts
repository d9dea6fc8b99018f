// node:fs for the fault tests: the functions they make fail are spies over the real ones
// (vi.fn(real)), which pass every call through until a test says otherwise (mockImplementationOnce).
// A test file mocks node:fs with it, importing it inside the factory (vi.mock is hoisted above imports):
//   vi.mock('node:fs', async (importOriginal) =>
//     (await import('../test/spied-fs.js')).spiedFs(await importOriginal(), ['openSync', 'writeSync']));
import { vi } from 'vitest';

type Fs = typeof import('node:fs');

/** `real` (node:fs itself) with each of `names` a spy that calls the real function. */
export function spiedFs(real: Fs, names: readonly (keyof Fs)[]): Fs {
  const spies = Object.fromEntries(names.map((name) => [name, vi.fn(real[name] as (...args: unknown[]) => unknown)]));
  return { ...real, ...spies };
}
