/**
 * What every group of the QuestionStore conformance suite shares: the context a test body gets
 * (its store, another handle on the list, the timings), the wrapper that opens and closes a store
 * per test, and the small helpers the tests are written with.
 */
import type { ConformanceRunner } from '../message-store-conformance/suite-context.js';
import type { OutgoingQuestion, QuestionLimits, QuestionStore, StoredQuestion } from '../question-store.js';

/** The context a test body gets: its store, another handle on the list, and the timings. */
export interface QuestionTestContext {
  store: QuestionStore;
  /** Another handle on the list (the same store when the store gives none). */
  other: () => Promise<QuestionStore>;
  /** The limits the store was opened with (the test's over `DEFAULT_QUESTION_LIMITS`). */
  limits: Readonly<QuestionLimits>;
  /** How far ahead the expiry test's question expires, in ms. */
  expiryMs: number;
  /** Resolves with `attempt()`'s first answer that is not undefined; fails after the poll timeout. */
  eventually<T>(what: string, attempt: () => Promise<T | undefined> | T | undefined): Promise<T>;
  /** The error `call()` rejects with; fails when it resolves or throws synchronously. */
  refusal(what: string, call: () => Promise<unknown>): Promise<unknown>;
}

/** Makes a test's body into the function the runner calls, on a store opened with `limits` for that one test. */
export type QuestionTest = (
  body: (context: QuestionTestContext) => Promise<void>,
  limits?: Partial<QuestionLimits>,
) => () => Promise<void>;

/** What a group registers its tests with: the runner's `it` and `expect`, the wrapper, and each test's budget in ms. */
export interface QuestionSuiteTools {
  it: ConformanceRunner['it'];
  expect: ConformanceRunner['expect'];
  test: QuestionTest;
  timeout: number;
}

/** An hour: an `expiresAt` no test reaches. */
export const HOUR_MS = 3_600_000;

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A question of `asker` that expires in an hour (or `fields.expiresAt`). */
export function outgoing(asker: string, question: string, fields: Partial<OutgoingQuestion> = {}): OutgoingQuestion {
  return { asker, question, options: [], expiresAt: Date.now() + HOUR_MS, ...fields };
}

/** The number of an `ask_N` id, or NaN for another form. */
export function idNumber(id: string): number {
  const match = /^ask_([1-9][0-9]*)$/.exec(id);
  return match ? Number(match[1]) : Number.NaN;
}

/** The ids of `questions`, in their order. */
export const ids = (questions: readonly StoredQuestion[]) => questions.map((question) => question.id);

/** The fields a question has only once it ended: none of them is on an open one. */
export const SETTLED_FIELDS = ['answer', 'settledBy', 'reason', 'settledAt'] as const;
