/**
 * The contract every MessageStore keeps, as a test suite any store runs against itself: the memory
 * store here, the list folder of @raider/file-store, the PostgreSQL store. A new store is an
 * adapter plus this suite. The test functions are passed in (vitest's, or another runner's of the
 * same shape), so the package does not depend on a test runner.
 *
 * Here are the suite's options and its entry; its groups are files of their own in
 * message-store-conformance/ (order and fields, leases, concurrency, limits, watch and arguments),
 * registered in that order, with what they share in suite-context.ts.
 */
import { DEFAULT_MESSAGE_LIMITS, type MessageLimits, type MessageStore } from './message-store.js';
import { concurrency } from './message-store-conformance/concurrency.js';
import { leases } from './message-store-conformance/leases.js';
import { limits } from './message-store-conformance/limits.js';
import { orderAndFields } from './message-store-conformance/order-and-fields.js';
import {
  type ConformanceRunner,
  type SuiteTools,
  sleep,
  type Test,
  type TestContext,
} from './message-store-conformance/suite-context.js';
import { watchAndArguments } from './message-store-conformance/watch-and-arguments.js';

export type { ConformanceRunner } from './message-store-conformance/suite-context.js';

/** What a test asks of the store it opens: the bounds its inboxes must keep. */
export interface MessageStoreSetup {
  /** `DEFAULT_MESSAGE_LIMITS` with the test's own over them (a small inbox, a short age). */
  readonly limits: Readonly<MessageLimits>;
}

/** A fresh, empty list's store for one test. */
export interface OpenedMessageStore {
  /** The store the test uses. */
  store: MessageStore;
  /**
   * Another handle on the same list, as another process would open it (a second folder handle, a
   * second database pool); without it the tests use `store` again (a store shared in memory).
   */
  other?: () => Promise<MessageStore>;
  /** Cleans up after the test: closes `store` and every handle `other` opened. */
  close?: () => Promise<void>;
}

/** Opens a fresh, empty list's store that keeps `setup.limits`, once per test. */
export type OpenMessageStore = (setup: MessageStoreSetup) => Promise<OpenedMessageStore> | OpenedMessageStore;

/** The runner and the timings of the suite. */
export interface MessageStoreConformanceOptions extends ConformanceRunner {
  /** The short lease of the tests that wait for one to lapse, in ms (default 300). */
  leaseMs?: number;
  /**
   * How long the suite waits for what a store does asynchronously (a watch call, a lapse seen by
   * a take, an expiry), in ms (default 20 000: the file and database stores notice changes late on
   * a busy machine). Nothing is asserted about speed.
   */
  pollTimeoutMs?: number;
  /** Each test's budget, in ms (default 60 000). */
  testTimeoutMs?: number;
}

/**
 * Registers the MessageStore contract suite for the store `label`, opened afresh for each test by
 * `makeStore` (which must keep the limits it is given), with the runner's test functions:
 *
 * ```ts
 * import { describeMessageStoreConformance } from '@raider/tasks-registry/conformance';
 * import { describe, expect, it } from 'vitest';
 *
 * describeMessageStoreConformance('my store', async ({ limits }) => {
 *   const store = await openMyStore({ limits });
 *   return { store, other: () => openMyStore({ limits }), close: () => store.close() };
 * }, { describe, it, expect });
 * ```
 */
export function describeMessageStoreConformance(
  label: string,
  makeStore: OpenMessageStore,
  options: MessageStoreConformanceOptions,
): void {
  const runner: ConformanceRunner = { describe: options.describe, it: options.it, expect: options.expect };
  const tools = suiteTools(label, makeStore, options);
  runner.describe(`${label}: the MessageStore contract`, () => {
    orderAndFields(tools);
    leases(tools);
    concurrency(tools);
    limits(tools);
    watchAndArguments(tools);
  });
}

/**
 * What the groups register their tests with, for the store `label` opened afresh for each test by
 * `makeStore`: the runner's `it` and `expect`, each test's budget, and the wrapper that opens the
 * store with the test's limits and closes it after. Internal (not exported by the `conformance`
 * entry): the suite uses it, and each group's own test.
 */
export function suiteTools(
  label: string,
  makeStore: OpenMessageStore,
  options: MessageStoreConformanceOptions,
): SuiteTools {
  const leaseMs = options.leaseMs ?? 300;
  const eventually = polling(label, options.pollTimeoutMs ?? 20_000);
  const refusal = refusals(label);
  const test: Test = (body, limits) => async () => {
    const opened = await makeStore({ limits: Object.freeze({ ...DEFAULT_MESSAGE_LIMITS, ...limits }) });
    try {
      const other = opened.other ?? (async () => opened.store);
      await body({ store: opened.store, other, leaseMs, eventually, refusal });
    } finally {
      await opened.close?.();
    }
  };
  return { it: options.it, expect: options.expect, test, timeout: options.testTimeoutMs ?? 60_000 };
}

/** The suite's `eventually`: `attempt()` again every 50 ms until it answers, failing after `pollTimeoutMs`. */
function polling(label: string, pollTimeoutMs: number): TestContext['eventually'] {
  return async <T>(what: string, attempt: () => Promise<T | undefined> | T | undefined): Promise<T> => {
    const deadline = Date.now() + pollTimeoutMs;
    for (;;) {
      const value = await attempt();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${label}: ${what}: not within ${pollTimeoutMs} ms`);
      await sleep(50);
    }
  };
}

/** The suite's `refusal`: the error a call rejects with; an error when it resolves or throws at once. */
function refusals(label: string): TestContext['refusal'] {
  return async (what: string, call: () => Promise<unknown>): Promise<unknown> => {
    let answer: Promise<unknown>;
    try {
      answer = call();
    } catch (error) {
      throw new Error(`${label}: ${what}: expected a rejected promise, but the call threw at once: ${String(error)}`);
    }
    try {
      await answer;
    } catch (error) {
      return error;
    }
    throw new Error(`${label}: ${what}: expected a refusal, but it was accepted`);
  };
}
