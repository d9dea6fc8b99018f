import { describe, expect, it } from 'vitest';
import { collectingRunner, failedOf } from '../../test/collecting-runner.js';
import { memoryMessageStore } from '../memory-message-store.js';
import type { MessageStore } from '../message-store.js';
import { suiteTools } from '../message-store-conformance.js';
import { concurrency } from './concurrency.js';

describe('the group of concurrency', () => {
  it('registers its two tests, and passes the memory store', async () => {
    const { options, tests } = collectingRunner();
    concurrency(suiteTools('memory', ({ limits }) => ({ store: memoryMessageStore({ limits }) }), options));
    expect(tests).toHaveLength(2);
    expect(await failedOf(tests)).toEqual([]);
  });

  it('fails a store whose take answers what it saw before it reserved (two takes get the same messages)', async () => {
    const { options, tests } = collectingRunner();
    const open = () => {
      const store = memoryMessageStore();
      // Not atomic: it looks, lets other calls run, then reserves, and answers what it looked at.
      // Its done still removes what it reserved, so every taker ends.
      const racy: MessageStore = {
        ...store,
        take: async (agent, takeOptions) => {
          const seen = await store.peek(agent);
          await new Promise((resolve) => setTimeout(resolve, 5));
          const delivery = await store.take(agent, takeOptions);
          return { ...delivery, messages: seen.slice(0, delivery.messages.length) };
        },
      };
      return { store: racy };
    };
    concurrency(suiteTools('racy', open, options));
    expect(await failedOf(tests)).toContain('concurrent takes on two handles hold disjoint messages');
  });
});
