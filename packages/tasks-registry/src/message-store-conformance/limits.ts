/** The conformance group of limits: the text bound, the inbox bound, and a message's age. */
import { MessageLimitError } from '../errors.js';
import { LONG_LEASE_MS, plain, SHORT_AGE_MS, type SuiteTools, sendMany } from './suite-context.js';

/** The text bound, the inbox bound, and age. */
export function limits(tools: SuiteTools): void {
  textBound(tools);
  inboxBound(tools);
  maxAge(tools);
}

/** The text bound: refused with a MessageLimitError that echoes no text, nothing changed. */
function textBound({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** The inbox bound: reserved messages count, other inboxes are not held up, done makes room. */
function inboxBound({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** A message older than maxAgeMs is dropped untaken. */
function maxAge({ it, expect, test, timeout }: SuiteTools): void {
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
