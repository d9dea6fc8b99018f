/**
 * The contract every MessageStore keeps, as a test suite any store runs against itself: the memory
 * store here, the list folder of @raider/file-store, the PostgreSQL store. A new store is an
 * adapter plus this suite. The test functions are passed in (vitest's, or another runner's of the
 * same shape), so the package does not depend on a test runner.
 */
import { MessageLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
import {
  DEFAULT_MESSAGE_LIMITS,
  type MessageDelivery,
  type MessageLimits,
  type MessageStore,
  type OutgoingMessage,
  type StoredMessage,
} from './message-store.js';

/** The test functions the suite registers its tests with (vitest's `describe`, `it`, `expect`). */
export interface ConformanceRunner {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>, timeout?: number): void;
  // biome-ignore lint/suspicious/noExplicitAny: the runner's own expect, whatever its typing.
  expect: (actual: unknown, message?: string) => any;
}

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

/** A lease no test outlives: what a take holds while the test looks at the others. */
const LONG_LEASE_MS = 120_000;
/** The `maxAgeMs` of the expiry test. */
const SHORT_AGE_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A plain message for `to`. */
function plain(to: string, text: string, fields: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return { to, text, notification: false, ...fields };
}

const texts = (messages: readonly StoredMessage[]) => messages.map((message) => message.text);
const ids = (messages: readonly StoredMessage[]) => messages.map((message) => message.id);

/** The context a test body gets: its store, another handle on the list, and the timings. */
interface TestContext {
  store: MessageStore;
  other: () => Promise<MessageStore>;
  leaseMs: number;
  /** Resolves with `attempt()`'s first answer that is not undefined; fails after the poll timeout. */
  eventually<T>(what: string, attempt: () => Promise<T | undefined> | T | undefined): Promise<T>;
  /** The error `call()` rejects with; fails when it resolves or throws synchronously. */
  refusal(what: string, call: () => Promise<unknown>): Promise<unknown>;
}

type Test = (body: (context: TestContext) => Promise<void>, limits?: Partial<MessageLimits>) => () => Promise<void>;

/** Sends `count` plain messages to `to`, one after another: `prefix1`, `prefix2`, ... */
async function sendMany(store: MessageStore, to: string, prefix: string, count: number): Promise<StoredMessage[]> {
  const sent: StoredMessage[] = [];
  for (let index = 1; index <= count; index += 1) sent.push(await store.send(plain(to, `${prefix}${index}`)));
  return sent;
}

/** Order per inbox, every field kept, and what a take returns. */
function orderAndFields({ it, expect }: ConformanceRunner, test: Test, timeout: number): void {
  it(
    'each inbox gives its messages in the order it got them, apart from the other inboxes',
    test(async ({ store }) => {
      const sent: StoredMessage[] = [];
      for (const [to, text] of [
        ['alice', 'a1'],
        ['bob', 'b1'],
        ['alice', 'a2'],
        ['alice', 'a3'],
        ['bob', 'b2'],
      ] as const) {
        sent.push(await store.send(plain(to, text)));
      }
      expect(new Set(ids(sent)).size, 'ids are unique in the list').toBe(5);
      const alice = await store.take('alice');
      expect(texts(alice.messages)).toEqual(['a1', 'a2', 'a3']);
      const bob = await store.take('bob');
      expect(texts(bob.messages)).toEqual(['b1', 'b2']);
      await alice.done();
      await bob.done();
      expect((await store.take('alice')).messages).toEqual([]);
      expect((await store.take('nobody')).messages).toEqual([]);
    }),
    timeout,
  );

  it(
    'every field round-trips: to, from, text, notification, about, label, taskId; id and sentAt assigned',
    test(async ({ store, other }) => {
      const before = Date.now();
      const outgoing: OutgoingMessage[] = [
        plain('bob', 'Zwei ✓ "quoted" <b> & \\ \n\ttabbed\r\nend 🚀', { from: 'alice', taskId: '7' }),
        {
          to: 'bob',
          text: '<task-notification>\n<task-id>agent_1</task-id>\n<status>completed</status>\n</task-notification>',
          notification: true,
          about: 'agent_1',
          label: 'background agent agent_1 finished',
        },
        plain('bob', ''),
        plain('bob', 'x'.repeat(DEFAULT_MESSAGE_LIMITS.maxTextLength)),
      ];
      const stored: StoredMessage[] = [];
      for (const message of outgoing) {
        const answer = await store.send(message);
        expect(typeof answer.id, 'id is a string').toBe('string');
        expect(Number.isFinite(answer.sentAt), 'sentAt is a number').toBe(true);
        expect(Math.abs(answer.sentAt - before) < 3_600_000, 'sentAt is ms since the epoch').toBe(true);
        expect(answer).toEqual({ ...message, id: answer.id, sentAt: answer.sentAt });
        stored.push(answer);
      }
      // What is absent stays absent: no key with a value the sender did not give.
      for (const field of ['from', 'about', 'label', 'taskId'] as const) {
        expect(stored[2]?.[field], `${field} of a message without it`).toBeUndefined();
      }
      const elsewhere = await other();
      expect(await elsewhere.peek('bob')).toEqual(stored);
      const delivery = await elsewhere.take('bob');
      expect(delivery.messages).toEqual(stored);
      await delivery.done();
    }),
    timeout,
  );

  it(
    '`max` takes at most that many, oldest first',
    test(async ({ store, other }) => {
      await sendMany(store, 'alice', 'm', 5);
      const first = await store.take('alice', { max: 2, leaseMs: LONG_LEASE_MS });
      expect(texts(first.messages)).toEqual(['m1', 'm2']);
      const second = await (await other()).take('alice', { max: 2, leaseMs: LONG_LEASE_MS });
      expect(texts(second.messages)).toEqual(['m3', 'm4']);
      const rest = await store.take('alice', { max: 10 });
      expect(texts(rest.messages)).toEqual(['m5']);
      await Promise.all([first.done(), second.done(), rest.done()]);
    }),
    timeout,
  );
}

/** Leases: at least once, release, done, and peek. */
function leases({ it, expect }: ConformanceRunner, test: Test, timeout: number): void {
  it(
    'while a lease holds, no take gets its messages, through this handle or another; peek does not show them',
    test(async ({ store, other }) => {
      await sendMany(store, 'alice', 'm', 3);
      const held = await store.take('alice', { leaseMs: LONG_LEASE_MS });
      expect(texts(held.messages)).toEqual(['m1', 'm2', 'm3']);
      const elsewhere = await other();
      expect((await store.take('alice')).messages).toEqual([]);
      expect((await elsewhere.take('alice')).messages).toEqual([]);
      expect(await store.peek('alice')).toEqual([]);
      expect(await elsewhere.peek('alice')).toEqual([]);
      await held.release();
    }),
    timeout,
  );

  it(
    'at least once: messages not marked done are taken again, by another handle, once the lease lapses',
    test(async ({ store, other, leaseMs, eventually }) => {
      const sent = await sendMany(store, 'alice', 'm', 3);
      // A taker that dies: no done, no release.
      const lost = await store.take('alice', { leaseMs });
      expect(ids(lost.messages)).toEqual(ids(sent));
      const elsewhere = await other();
      const again = await eventually('the messages taken again after the lease lapsed', async () => {
        const delivery = await elsewhere.take('alice', { leaseMs: LONG_LEASE_MS });
        return delivery.messages.length > 0 ? delivery : undefined;
      });
      expect(again.messages).toEqual(sent);
      // The first taker's late release must not free what the second holds now.
      await lost.release();
      expect((await store.take('alice')).messages).toEqual([]);
      await again.done();
      expect((await store.take('alice')).messages).toEqual([]);
    }),
    timeout,
  );

  it(
    'release gives the messages back at once: the next take, on any handle, gets them first, in order',
    test(async ({ store, other }) => {
      const sent = await sendMany(store, 'alice', 'm', 3);
      const first = await store.take('alice', { max: 2, leaseMs: LONG_LEASE_MS });
      expect(texts(first.messages)).toEqual(['m1', 'm2']);
      const later = await store.send(plain('alice', 'm4'));
      await first.release();
      await first.release();
      const next = await (await other()).take('alice', { leaseMs: LONG_LEASE_MS });
      expect(next.messages).toEqual([...sent, later]);
      await next.done();
    }),
    timeout,
  );

  it(
    'done removes the messages for good: not after the lease, not on another handle; done is idempotent',
    test(async ({ store, other, leaseMs }) => {
      await sendMany(store, 'alice', 'm', 2);
      const delivery = await store.take('alice', { leaseMs });
      expect(texts(delivery.messages)).toEqual(['m1', 'm2']);
      await delivery.done();
      await delivery.done();
      // A release after done gives nothing back.
      await delivery.release();
      await sleep(leaseMs * 2);
      const elsewhere = await other();
      expect(await store.peek('alice')).toEqual([]);
      expect(await elsewhere.peek('alice')).toEqual([]);
      expect((await elsewhere.take('alice')).messages).toEqual([]);
      expect((await store.take('alice')).messages).toEqual([]);
    }),
    timeout,
  );

  it(
    'an empty take can be done and released',
    test(async ({ store }) => {
      const delivery = await store.take('nobody');
      expect(delivery.messages).toEqual([]);
      await delivery.done();
      await delivery.release();
    }),
    timeout,
  );

  it(
    'peek shows what waits and is not reserved, oldest first, and takes nothing',
    test(async ({ store, other }) => {
      const sent = await sendMany(store, 'alice', 'm', 3);
      expect(await store.peek('alice')).toEqual(sent);
      const first = await store.take('alice', { max: 1, leaseMs: LONG_LEASE_MS });
      expect(await store.peek('alice')).toEqual(sent.slice(1));
      expect(await (await other()).peek('alice')).toEqual(sent.slice(1));
      expect(await store.peek('nobody')).toEqual([]);
      const rest = await store.take('alice', { leaseMs: LONG_LEASE_MS });
      expect(rest.messages).toEqual(sent.slice(1));
      await Promise.all([first.done(), rest.done()]);
    }),
    timeout,
  );
}

/** Two handles taking for one agent at once. */
function concurrency({ it, expect }: ConformanceRunner, test: Test, timeout: number): void {
  it(
    'concurrent takes on two handles hold disjoint messages',
    test(async ({ store, other }) => {
      const sent = await sendMany(store, 'alice', 'm', 10);
      const elsewhere = await other();
      const handles = [store, elsewhere];
      const deliveries = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          (handles[index % 2] as MessageStore).take('alice', { max: 2, leaseMs: LONG_LEASE_MS }),
        ),
      );
      deliveries.push(await store.take('alice', { leaseMs: LONG_LEASE_MS }));
      const taken = deliveries.flatMap((delivery) => ids(delivery.messages));
      expect(new Set(taken).size, 'no message held by two takes').toBe(taken.length);
      expect([...taken].sort()).toEqual(ids(sent).sort());
      await Promise.all(deliveries.map((delivery) => delivery.done()));
    }),
    timeout,
  );

  it(
    'four takers on two handles, taking and marking done at once, get every message exactly once, each take in order',
    test(async ({ store, other }) => {
      const sent = await sendMany(store, 'alice', 'm', 40);
      const position = new Map(sent.map((message, index) => [message.id, index]));
      const elsewhere = await other();
      const deliveries: MessageDelivery[] = [];
      const taker = async (handle: MessageStore) => {
        for (;;) {
          const delivery = await handle.take('alice', { max: 3, leaseMs: LONG_LEASE_MS });
          if (delivery.messages.length === 0) return;
          deliveries.push(delivery);
          await delivery.done();
        }
      };
      await Promise.all([taker(store), taker(elsewhere), taker(store), taker(elsewhere)]);
      const taken = deliveries.flatMap((delivery) => ids(delivery.messages));
      expect(new Set(taken).size, 'no message taken twice').toBe(taken.length);
      expect([...taken].sort()).toEqual(ids(sent).sort());
      for (const delivery of deliveries) {
        const order = delivery.messages.map((message) => position.get(message.id) as number);
        expect(order, 'a take gives its messages oldest first').toEqual([...order].sort((a, b) => a - b));
      }
      expect(await store.peek('alice')).toEqual([]);
    }),
    timeout,
  );
}

/** The text bound, the inbox bound, and age. */
function limits({ it, expect }: ConformanceRunner, test: Test, timeout: number): void {
  it(
    'a text longer than maxTextLength is refused with a MessageLimitError that echoes no text, and changes nothing',
    test(
      async ({ store, other, refusal }) => {
        const fits = await store.send(plain('alice', 'x'.repeat(20)));
        const error = await refusal('a send of 5000 characters', () => store.send(plain('alice', 'y'.repeat(5_000))));
        expect(MessageLimitError.isInstance(error), `a MessageLimitError, received ${String(error)}`).toBe(true);
        const message = (error as Error).message;
        expect(message, 'the message says the bound and the length received').toMatch(/\b20\b[\s\S]*\b5000\b/);
        expect(message.includes('yyyyyyyyyy'), 'the message does not echo the text').toBe(false);
        await refusal('a send of 21 characters', () => store.send(plain('alice', 'z'.repeat(21))));
        expect(await store.peek('alice')).toEqual([fits]);
        expect(await (await other()).peek('alice')).toEqual([fits]);
      },
      { maxTextLength: 20 },
    ),
    timeout,
  );

  it(
    'a send to a full inbox (reserved messages count) is refused with a MessageLimitError and changes nothing; other inboxes still take theirs; done makes room',
    test(
      async ({ store, other, refusal }) => {
        const sent = await sendMany(store, 'alice', 'm', 3);
        const elsewhere = await other();
        const error = await refusal('a fourth message', () => elsewhere.send(plain('alice', 'm4')));
        expect(MessageLimitError.isInstance(error), `a MessageLimitError, received ${String(error)}`).toBe(true);
        expect((error as Error).message, 'the message names the inbox and its bound').toMatch(/alice[\s\S]*\b3\b/);
        expect(await store.peek('alice')).toEqual(sent);
        await elsewhere.send(plain('bob', 'b1'));
        // A reserved message still waits (it is removed at done): the inbox is still full.
        const delivery = await store.take('alice', { max: 1, leaseMs: LONG_LEASE_MS });
        await refusal('a fourth message while one is reserved', () => elsewhere.send(plain('alice', 'm4')));
        await delivery.done();
        const fourth = await elsewhere.send(plain('alice', 'm4'));
        expect(await store.peek('alice')).toEqual([...sent.slice(1), fourth]);
      },
      { maxInboxMessages: 3 },
    ),
    timeout,
  );

  it(
    'a message older than maxAgeMs is dropped untaken, by peek and by take; a newer one is taken',
    test(
      async ({ store, other, eventually }) => {
        // carol's first: it is the older, so it has expired once alice's has.
        await store.send(plain('carol', 'old'));
        const old = await store.send(plain('alice', 'old'));
        expect(await store.peek('alice')).toEqual([old]);
        await eventually('the old message dropped by peek', async () =>
          (await store.peek('alice')).length === 0 ? true : undefined,
        );
        const elsewhere = await other();
        expect((await elsewhere.take('carol')).messages, 'dropped by take').toEqual([]);
        expect((await store.take('alice')).messages).toEqual([]);
        const fresh = await elsewhere.send(plain('alice', 'fresh'));
        const delivery = await store.take('alice');
        expect(delivery.messages).toEqual([fresh]);
        await delivery.done();
      },
      { maxAgeMs: SHORT_AGE_MS },
    ),
    timeout,
  );
}

/** watch, and the arguments a store refuses. */
function watchAndArguments({ it, expect }: ConformanceRunner, test: Test, timeout: number): void {
  it(
    'watch calls back after a send through this handle and through another; once stopped, no more',
    test(async ({ store, other, eventually }) => {
      let calls = 0;
      const stop = store.watch('bob', () => {
        calls += 1;
      });
      try {
        await store.send(plain('bob', 'b1'));
        await eventually('a watch call after a send on this handle', () => (calls > 0 ? true : undefined));
        const seen = calls;
        await (await other()).send(plain('bob', 'b2'));
        await eventually('a watch call after a send on another handle', () => (calls > seen ? true : undefined));
      } finally {
        stop();
      }
      stop();
      // What a store had noticed before the stop may still be on its way: let it settle first.
      await sleep(500);
      const stopped = calls;
      await (await other()).send(plain('bob', 'b3'));
      await store.send(plain('bob', 'b4'));
      await sleep(1_000);
      expect(calls, 'no call after the watch was stopped').toBe(stopped);
      expect(texts(await store.peek('bob'))).toEqual(['b1', 'b2', 'b3', 'b4']);
    }),
    timeout,
  );

  it(
    'bad arguments are refused with a RegistryArgumentError (a RegistryRangeError for a number out of range), changing nothing',
    test(async ({ store, refusal }) => {
      const longName = 'n'.repeat(200);
      const good = [await store.send(plain('bob', 'ok', { from: longName })), await store.send(plain(longName, 'ok'))];
      const badSends: [string, unknown][] = [
        ['no message', undefined],
        ['null', null],
        ['a string', 'hello'],
        ['an empty `to`', plain('', 'x')],
        ['a `to` of 201 characters', plain('n'.repeat(201), 'x')],
        ['a numeric `to`', { to: 5, text: 'x', notification: false }],
        ['no `to`', { text: 'x', notification: false }],
        ['an empty `from`', plain('bob', 'x', { from: '' })],
        ['a numeric text', { to: 'bob', text: 5, notification: false }],
        ['no text', { to: 'bob', notification: false }],
        ['no `notification`', { to: 'bob', text: 'x' }],
        ['a string `notification`', { to: 'bob', text: 'x', notification: 'yes' }],
        ['a numeric `taskId`', { to: 'bob', text: 'x', notification: false, taskId: 7 }],
      ];
      for (const [what, message] of badSends) {
        const error = await refusal(`send of ${what}`, () => store.send(message as OutgoingMessage));
        expect(RegistryArgumentError.isInstance(error), `send of ${what}: received ${String(error)}`).toBe(true);
      }
      const badReads: [string, () => Promise<unknown>][] = [
        ['take of an empty name', () => store.take('')],
        ['take of a numeric name', () => store.take(5 as unknown as string)],
        ['take of a name of 201 characters', () => store.take('n'.repeat(201))],
        ['peek of an empty name', () => store.peek('')],
        ['peek of no name', () => store.peek(undefined as unknown as string)],
      ];
      for (const [what, call] of badReads) {
        const error = await refusal(what, call);
        expect(RegistryArgumentError.isInstance(error), `${what}: received ${String(error)}`).toBe(true);
      }
      for (const [what, options] of [
        ['leaseMs -1', { leaseMs: -1 }],
        ['leaseMs 0', { leaseMs: 0 }],
        ['leaseMs "soon"', { leaseMs: 'soon' }],
        ['max 0', { max: 0 }],
        ['max 1.5', { max: 1.5 }],
      ] as const) {
        const error = await refusal(`take with ${what}`, () => store.take('bob', options as never));
        const refused = RegistryArgumentError.isInstance(error) || RegistryRangeError.isInstance(error);
        expect(refused, `take with ${what}: received ${String(error)}`).toBe(true);
      }
      for (const [what, call] of [
        ['watch of an empty name', () => store.watch('', () => {})],
        ['watch without a function', () => store.watch('bob', 'call me' as never)],
      ] as const) {
        let error: unknown;
        try {
          call()();
        } catch (thrown) {
          error = thrown;
        }
        expect(RegistryArgumentError.isInstance(error), `${what}: received ${String(error)}`).toBe(true);
      }
      expect(await store.peek('bob')).toEqual([good[0]]);
      expect(await store.peek(longName)).toEqual([good[1]]);
    }),
    timeout,
  );
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
  const leaseMs = options.leaseMs ?? 300;
  const pollTimeoutMs = options.pollTimeoutMs ?? 20_000;
  const timeout = options.testTimeoutMs ?? 60_000;
  const runner: ConformanceRunner = { describe: options.describe, it: options.it, expect: options.expect };

  const eventually = async <T>(what: string, attempt: () => Promise<T | undefined> | T | undefined): Promise<T> => {
    const deadline = Date.now() + pollTimeoutMs;
    for (;;) {
      const value = await attempt();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${label}: ${what}: not within ${pollTimeoutMs} ms`);
      await sleep(50);
    }
  };

  const refusal = async (what: string, call: () => Promise<unknown>): Promise<unknown> => {
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

  const test: Test = (body, limits) => async () => {
    const opened = await makeStore({ limits: Object.freeze({ ...DEFAULT_MESSAGE_LIMITS, ...limits }) });
    try {
      const other = opened.other ?? (async () => opened.store);
      await body({ store: opened.store, other, leaseMs, eventually, refusal });
    } finally {
      await opened.close?.();
    }
  };

  runner.describe(`${label}: the MessageStore contract`, () => {
    orderAndFields(runner, test, timeout);
    leases(runner, test, timeout);
    concurrency(runner, test, timeout);
    limits(runner, test, timeout);
    watchAndArguments(runner, test, timeout);
  });
}
