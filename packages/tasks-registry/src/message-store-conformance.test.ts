// The MessageStore conformance suite itself: one describe of sixteen tests in a fixed order (the
// groups of message-store-conformance/ in turn), passing a store that keeps the contract, failing
// one that breaks it, and closing each store it opened.
import { describe, expect, it } from 'vitest';
import { collectingRunner, failedOf } from '../test/collecting-runner.js';
import { memoryMessageStore } from './memory-message-store.js';
import type { MessageStore } from './message-store.js';
import { describeMessageStoreConformance } from './message-store-conformance.js';

const NAMES = [
  'each inbox gives its messages in the order it got them, apart from the other inboxes',
  'every field round-trips: to, from, text, notification, about, label, taskId; id and sentAt assigned',
  '`max` takes at most that many, oldest first',
  'while a lease holds, no take gets its messages, through this handle or another; peek does not show them',
  'at least once: messages not marked done are taken again, by another handle, once the lease lapses',
  'release gives the messages back at once: the next take, on any handle, gets them first, in order',
  'done removes the messages for good: not after the lease, not on another handle; done is idempotent',
  'an empty take can be done and released',
  'peek shows what waits and is not reserved, oldest first, and takes nothing',
  'concurrent takes on two handles hold disjoint messages',
  'four takers on two handles, taking and marking done at once, get every message exactly once, each take in order',
  'a text longer than maxTextLength is refused with a MessageLimitError that echoes no text, and changes nothing',
  'a send to a full inbox (reserved messages count) is refused with a MessageLimitError and changes nothing; other inboxes still take theirs; done makes room',
  'a message older than maxAgeMs is dropped untaken, by peek and by take; a newer one is taken',
  'watch calls back after a send through this handle and through another; once stopped, no more',
  'bad arguments are refused with a RegistryArgumentError (a RegistryRangeError for a number out of range), changing nothing',
];

describe('describeMessageStoreConformance', () => {
  it('registers one describe of the sixteen tests, in order, each with the test budget', () => {
    const { options, groups, tests } = collectingRunner();
    describeMessageStoreConformance('under test', () => ({ store: memoryMessageStore() }), {
      ...options,
      testTimeoutMs: 12_345,
    });
    expect(groups).toEqual(['under test: the MessageStore contract']);
    expect(tests.map((test) => test.name)).toEqual(NAMES);
    expect(new Set(tests.map((test) => test.timeout))).toEqual(new Set([12_345]));
  });

  it('passes the memory store, and closes each store it opened', async () => {
    const { options, tests } = collectingRunner();
    let opened = 0;
    let closed = 0;
    describeMessageStoreConformance(
      'memory',
      ({ limits }) => {
        opened += 1;
        return {
          store: memoryMessageStore({ limits }),
          close: async () => {
            closed += 1;
          },
        };
      },
      options,
    );
    expect(await failedOf(tests)).toEqual([]);
    expect(opened).toBe(NAMES.length);
    expect(closed).toBe(opened);
  }, 60_000);

  it('fails a store whose release keeps the lease, naming what it broke', async () => {
    const { options, tests } = collectingRunner();
    describeMessageStoreConformance(
      'keeps its leases',
      ({ limits }) => {
        const store = memoryMessageStore({ limits });
        const keeping: MessageStore = {
          ...store,
          take: async (agent, takeOptions) => ({ ...(await store.take(agent, takeOptions)), release: async () => {} }),
        };
        return { store: keeping };
      },
      options,
    );
    expect(await failedOf(tests)).toContain(NAMES[5]);
  }, 60_000);
});
