// A take's messages are removed once its answer was written, even when the store fails for a
// moment as they are (a database restarting, issue 27): the removal is tried again while the
// lease holds. Left reserved, they would be taken again once the lease lapsed: a duplicate of an
// answer the agent already has (seen in messages-scale.test.ts across a PostgreSQL restart).
import type { MessageDelivery, MessageStore } from '@raider/tasks-registry';
import { expect, it } from 'vitest';
import { listFor } from '../src/lists/list-for.js';
import { agentClient, serve } from './agent-clients.js';

/**
 * `store` with the first `failures` calls of a delivery's `done` failing, as a store that is down
 * does; how often `done` was called, and whether the store's own `done` removed the messages.
 */
function failingDone(store: MessageStore, failures: number): { calls: () => number; removed: () => boolean } {
  const take = store.take.bind(store);
  let calls = 0;
  let removed = false;
  let left = failures;
  store.take = async (agent, options) => {
    const delivery = await take(agent, options);
    if (delivery.messages.length === 0) return delivery;
    const wrapped: MessageDelivery = {
      messages: delivery.messages,
      release: () => delivery.release(),
      done: async () => {
        calls += 1;
        if (left > 0) {
          left -= 1;
          throw new Error('PostgreSQL at 127.0.0.1:5432/raider is unreachable (connect ECONNREFUSED)');
        }
        await delivery.done();
        removed = true;
      },
    };
    return wrapped;
  };
  return { calls: () => calls, removed: () => removed };
}

it.each(['legacy', 'modern'] as const)(
  '%s era: a removal that fails is tried again, and the message is not taken a second time',
  async (era) => {
    const list = `settle-${era}`;
    const server = await serve(['--team']);
    // The list in the server's memory (its runtime's): the handle here shares the server's inboxes.
    const handle = listFor(server.runtime, {}, list);
    if (!handle) throw new Error('no list');
    try {
      const store = handle.messages();
      const done = failingDone(store, 2);
      const alice = await agentClient(server.url, era, list, 'alice');
      const bob = await agentClient(server.url, era, list, 'bob');
      expect(await alice.call('send_message', { to: 'bob', message: 'Once only.' })).toBe('Message sent to bob');
      expect(await bob.call('wait_for_messages', { timeoutSeconds: 5 })).toBe('Message from alice: Once only.');
      // Twice refused, then removed by the store (about a second apart): not left reserved, so not
      // taken again when the lease lapses. Before the retry, the first failure left it there.
      await expect.poll(done.removed, { timeout: 20_000, interval: 100 }).toBe(true);
      expect(done.calls()).toBe(3);
      expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
    } finally {
      handle.release();
    }
  },
  60_000,
);
