/**
 * The conformance group of leases: what a take holds, at least once after a lapse, release, done,
 * and peek beside them.
 */
import { ids, LONG_LEASE_MS, plain, type SuiteTools, sendMany, sleep, texts } from './suite-context.js';

/** Leases: at least once, release, done, and peek. */
export function leases(tools: SuiteTools): void {
  leaseHolds(tools);
  atLeastOnce(tools);
  releaseGivesBack(tools);
  doneRemoves(tools);
  emptyTake(tools);
  peekShowsWaiting(tools);
}

/** A lease keeps its messages from every other take and from peek. */
function leaseHolds({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** At least once: a lease that lapses without done gives its messages to the next take; a late release frees nothing. */
function atLeastOnce({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** release gives the messages back at once, first in line and in order. */
function releaseGivesBack({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** done removes for good and is idempotent; a release after it gives nothing back. */
function doneRemoves({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** A take of nothing can be settled either way. */
function emptyTake({ it, expect, test, timeout }: SuiteTools): void {
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
}

/** peek shows what waits and no lease holds, and takes nothing. */
function peekShowsWaiting({ it, expect, test, timeout }: SuiteTools): void {
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
