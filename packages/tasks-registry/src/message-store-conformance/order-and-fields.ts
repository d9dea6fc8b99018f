/**
 * The conformance group of order and fields: each inbox in the order it got its messages, every
 * field round-tripping between handles, and what `max` bounds.
 */
import { DEFAULT_MESSAGE_LIMITS, type OutgoingMessage, type StoredMessage } from '../message-store.js';
import { ids, LONG_LEASE_MS, plain, type SuiteTools, sendMany, texts } from './suite-context.js';

/** Order per inbox, every field kept, and what a take returns. */
export function orderAndFields(tools: SuiteTools): void {
  inboxOrder(tools);
  everyFieldRoundTrips(tools);
  atMostMax(tools);
}

/** Each inbox keeps its own order, apart from the others; ids are unique in the list. */
function inboxOrder({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** Every field of a message comes back as sent, seen from another handle; what is absent stays absent. */
function everyFieldRoundTrips({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** `max` bounds a take, oldest first. */
function atMostMax({ it, expect, test, timeout }: SuiteTools): void {
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
