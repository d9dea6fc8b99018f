/**
 * What every group of the MessageStore conformance suite shares: the runner's test functions, the
 * context a test body gets (its store, another handle on the list, the timings), the wrapper that
 * opens and closes a store per test, and the small helpers the tests are written with.
 */
import type { MessageLimits, MessageStore, OutgoingMessage, StoredMessage } from '../message-store.js';

/** The test functions the suite registers its tests with (vitest's `describe`, `it`, `expect`). */
export interface ConformanceRunner {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>, timeout?: number): void;
  // biome-ignore lint/suspicious/noExplicitAny: the runner's own expect, whatever its typing.
  expect: (actual: unknown, message?: string) => any;
}

/** The context a test body gets: its store, another handle on the list, and the timings. */
export interface TestContext {
  store: MessageStore;
  other: () => Promise<MessageStore>;
  leaseMs: number;
  /** Resolves with `attempt()`'s first answer that is not undefined; fails after the poll timeout. */
  eventually<T>(what: string, attempt: () => Promise<T | undefined> | T | undefined): Promise<T>;
  /** The error `call()` rejects with; fails when it resolves or throws synchronously. */
  refusal(what: string, call: () => Promise<unknown>): Promise<unknown>;
}

/**
 * Makes a test's body into the function the runner calls: a store opened with the contract's
 * limits (`limits` over `DEFAULT_MESSAGE_LIMITS`) for that one test, and closed after it.
 */
export type Test = (
  body: (context: TestContext) => Promise<void>,
  limits?: Partial<MessageLimits>,
) => () => Promise<void>;

/** What a group registers its tests with: the runner's `it` and `expect`, the wrapper, and each test's budget in ms. */
export interface SuiteTools {
  it: ConformanceRunner['it'];
  expect: ConformanceRunner['expect'];
  test: Test;
  timeout: number;
}

/** A lease no test outlives: what a take holds while the test looks at the others. */
export const LONG_LEASE_MS = 120_000;
/** The `maxAgeMs` of the expiry test. */
export const SHORT_AGE_MS = 2_000;

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A plain message for `to`. */
export function plain(to: string, text: string, fields: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return { to, text, notification: false, ...fields };
}

/** The texts of `messages`, in their order. */
export const texts = (messages: readonly StoredMessage[]) => messages.map((message) => message.text);
/** The ids of `messages`, in their order. */
export const ids = (messages: readonly StoredMessage[]) => messages.map((message) => message.id);

/** Sends `count` plain messages to `to`, one after another: `prefix1`, `prefix2`, ... */
export async function sendMany(
  store: MessageStore,
  to: string,
  prefix: string,
  count: number,
): Promise<StoredMessage[]> {
  const sent: StoredMessage[] = [];
  for (let index = 1; index <= count; index += 1) sent.push(await store.send(plain(to, `${prefix}${index}`)));
  return sent;
}
