/**
 * The contract every QuestionStore keeps, as a test suite any store runs against itself: the
 * memory store here, the list folder of @raider/file-store, the PostgreSQL store. The test
 * functions are passed in (vitest's, or another runner's of the same shape), so the package does
 * not depend on a test runner.
 *
 * Here are the suite's options and its entry; its groups are files of their own in
 * question-store-conformance/ (asking, settling, lifetimes, watching), registered in that order,
 * with what they share in suite-context.ts.
 */
import type { ConformanceRunner } from './message-store-conformance/suite-context.js';
import { DEFAULT_QUESTION_LIMITS, type QuestionLimits, type QuestionStore } from './question-store.js';
import { asking } from './question-store-conformance/asking.js';
import { lifetimes } from './question-store-conformance/lifetimes.js';
import { settling } from './question-store-conformance/settling.js';
import {
  type QuestionSuiteTools,
  type QuestionTestContext,
  sleep,
} from './question-store-conformance/suite-context.js';
import { watching } from './question-store-conformance/watching.js';

/** What a test asks of the store it opens: the bounds its list must keep. */
export interface QuestionStoreSetup {
  /** `DEFAULT_QUESTION_LIMITS` with the test's own over them (a few open questions, a short keep). */
  readonly limits: Readonly<QuestionLimits>;
}

/** A fresh, empty list's question store for one test. */
export interface OpenedQuestionStore {
  /** The store the test uses. */
  store: QuestionStore;
  /**
   * Another handle on the same list, as another process would open it (a second folder handle, a
   * second database pool); without it the tests use `store` again (a store shared in memory).
   */
  other?: () => Promise<QuestionStore>;
  /** Cleans up after the test: closes `store` and every handle `other` opened. */
  close?: () => Promise<void>;
}

/** Opens a fresh, empty list's question store that keeps `setup.limits`, once per test. */
export type OpenQuestionStore = (setup: QuestionStoreSetup) => Promise<OpenedQuestionStore> | OpenedQuestionStore;

/** The runner and the timings of the suite. */
export interface QuestionStoreConformanceOptions extends ConformanceRunner {
  /**
   * How far ahead the expiry test's question expires, in ms (default 300). A store whose clock is
   * another machine's (a database's `now()`) may need more than the skew between the two.
   */
  expiryMs?: number;
  /**
   * How long the suite waits for what a store does asynchronously (a watch call, an expiry, a drop
   * after `keepSettledMs`), in ms (default 20 000: the file and database stores notice changes late
   * on a busy machine). Nothing is asserted about speed.
   */
  pollTimeoutMs?: number;
  /** Each test's budget, in ms (default 60 000). */
  testTimeoutMs?: number;
}

/**
 * Registers the QuestionStore contract suite for the store `label`, opened afresh for each test
 * by `makeStore` (which must keep the limits it is given), with the runner's test functions:
 *
 * ```ts
 * import { describeQuestionStoreConformance } from '@raider/tasks-registry/conformance';
 * import { describe, expect, it } from 'vitest';
 *
 * describeQuestionStoreConformance('my store', async ({ limits }) => {
 *   const store = await openMyQuestions({ limits });
 *   return { store, other: () => openMyQuestions({ limits }), close: () => store.close() };
 * }, { describe, it, expect });
 * ```
 */
export function describeQuestionStoreConformance(
  label: string,
  makeStore: OpenQuestionStore,
  options: QuestionStoreConformanceOptions,
): void {
  const tools = questionSuiteTools(label, makeStore, options);
  options.describe(`${label}: the QuestionStore contract`, () => {
    asking(tools);
    settling(tools);
    lifetimes(tools);
    watching(tools);
  });
}

/**
 * What the groups register their tests with, for the store `label` opened afresh for each test by
 * `makeStore`: the runner's `it` and `expect`, each test's budget, and the wrapper that opens the
 * store with the test's limits and closes it after. Internal (not exported by the `conformance`
 * entry): the suite uses it, and its own test.
 */
export function questionSuiteTools(
  label: string,
  makeStore: OpenQuestionStore,
  options: QuestionStoreConformanceOptions,
): QuestionSuiteTools {
  const expiryMs = options.expiryMs ?? 300;
  const eventually = polling(label, options.pollTimeoutMs ?? 20_000);
  const refusal = refusals(label);
  const test: QuestionSuiteTools['test'] = (body, given) => async () => {
    const limits = Object.freeze({ ...DEFAULT_QUESTION_LIMITS, ...given });
    const opened = await makeStore({ limits });
    try {
      const other = opened.other ?? (async () => opened.store);
      await body({ store: opened.store, other, limits, expiryMs, eventually, refusal });
    } finally {
      await opened.close?.();
    }
  };
  return { it: options.it, expect: options.expect, test, timeout: options.testTimeoutMs ?? 60_000 };
}

/** The suite's `eventually`: `attempt()` again every 50 ms until it answers, failing after `pollTimeoutMs`. */
function polling(label: string, pollTimeoutMs: number): QuestionTestContext['eventually'] {
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
function refusals(label: string): QuestionTestContext['refusal'] {
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
