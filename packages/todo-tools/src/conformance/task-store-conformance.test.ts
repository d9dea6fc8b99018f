// The conformance suite itself: it registers its tests with the runner it is given, passes a
// store that keeps the contract, and fails one that breaks it.
import { describe, expect, it } from 'vitest';
import { memoryTaskStore, type TaskStore } from '../store/task-store.js';
import { type ConformanceRunner, describeTaskStoreConformance, type OpenTestList } from './task-store-conformance.js';

/** Registers the suite with a runner that collects its tests, runs them all, and returns the names of those that failed. */
async function failuresOf(open: OpenTestList): Promise<{ names: string[]; failed: string[] }> {
  const tests: { name: string; body: () => Promise<void> }[] = [];
  const groups: string[] = [];
  const runner: ConformanceRunner = {
    describe: (name, body) => {
      groups.push(name);
      body();
    },
    it: (name, body) => void tests.push({ name, body }),
    expect,
  };
  describeTaskStoreConformance('under test', open, runner);
  expect(groups).toEqual(['under test: the TaskStore contract']);
  const failed: string[] = [];
  for (const test of tests) await test.body().catch(() => failed.push(test.name));
  return { names: tests.map((test) => test.name), failed };
}

describe('describeTaskStoreConformance', () => {
  it('passes the memory store, every test of it', async () => {
    const { names, failed } = await failuresOf(async () => {
      const store = memoryTaskStore();
      return { handle: () => store };
    });
    expect(names.length).toBeGreaterThan(12);
    expect(failed).toEqual([]);
  }, 60_000);

  it('fails a store that forgets its high-water mark, naming what it broke', async () => {
    const { failed } = await failuresOf(async () => {
      const store = memoryTaskStore();
      const forgetful: TaskStore = {
        ...store,
        load: async () => ({ ...(await store.load()), highWaterMark: 0 }),
      };
      return { handle: () => forgetful };
    });
    expect(failed).toContain('the high-water mark never goes down, and a removed id stays counted');
  }, 60_000);

  it('closes each list it opened, after each test', async () => {
    let opened = 0;
    let closed = 0;
    await failuresOf(async () => {
      opened += 1;
      const store = memoryTaskStore();
      return {
        handle: () => store,
        close: async () => {
          closed += 1;
        },
      };
    });
    expect(closed).toBe(opened);
    expect(opened).toBeGreaterThan(12);
  }, 60_000);
});
