/** The conformance group of concurrency: two handles taking for one agent at once. */
import type { MessageDelivery, MessageStore } from '../message-store.js';
import { ids, LONG_LEASE_MS, type SuiteTools, sendMany } from './suite-context.js';

/** Two handles taking for one agent at once. */
export function concurrency(tools: SuiteTools): void {
  disjointTakes(tools);
  fourTakers(tools);
}

/** Concurrent takes on two handles never hold one message twice. */
function disjointTakes({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** Four takers on two handles get every message exactly once, each take in order. */
function fourTakers({ it, expect, test, timeout }: SuiteTools): void {
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
