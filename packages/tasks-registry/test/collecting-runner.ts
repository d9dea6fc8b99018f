// A conformance runner that collects the tests it is given instead of running them, so that a test
// of the suite can run them itself and see which fail.
import { expect } from 'vitest';
import type { MessageStoreConformanceOptions } from '../src/message-store-conformance.js';

/** A registered test: its name, its body, its budget. */
export interface CollectedTest {
  name: string;
  body: () => Promise<void>;
  timeout?: number;
}

/** A runner (vitest's expect, a short lease and poll) whose `describe` and `it` record what they are given. */
export function collectingRunner(): {
  options: MessageStoreConformanceOptions;
  groups: string[];
  tests: CollectedTest[];
} {
  const groups: string[] = [];
  const tests: CollectedTest[] = [];
  const options: MessageStoreConformanceOptions = {
    describe: (name, body) => {
      groups.push(name);
      body();
    },
    it: (name, body, timeout) => void tests.push({ name, body, ...(timeout === undefined ? {} : { timeout }) }),
    expect,
    leaseMs: 100,
    pollTimeoutMs: 5_000,
  };
  return { options, groups, tests };
}

/** Runs `tests` one after another; the names of those that failed. */
export async function failedOf(tests: readonly CollectedTest[]): Promise<string[]> {
  const failed: string[] = [];
  for (const test of tests) await test.body().catch(() => failed.push(test.name));
  return failed;
}
