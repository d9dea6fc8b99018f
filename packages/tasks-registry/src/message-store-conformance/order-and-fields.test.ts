import { describe, expect, it } from 'vitest';
import { collectingRunner, failedOf } from '../../test/collecting-runner.js';
import { memoryMessageStore } from '../memory-message-store.js';
import type { MessageStore } from '../message-store.js';
import { suiteTools } from '../message-store-conformance.js';
import { orderAndFields } from './order-and-fields.js';

describe('the group of order and fields', () => {
  it('registers its three tests, and passes the memory store', async () => {
    const { options, tests } = collectingRunner();
    orderAndFields(suiteTools('memory', ({ limits }) => ({ store: memoryMessageStore({ limits }) }), options));
    expect(tests).toHaveLength(3);
    expect(await failedOf(tests)).toEqual([]);
  });

  it('fails a store that hands a take its messages newest first', async () => {
    const { options, tests } = collectingRunner();
    const open = () => {
      const store = memoryMessageStore();
      const reversed: MessageStore = {
        ...store,
        take: async (agent, takeOptions) => {
          const delivery = await store.take(agent, takeOptions);
          return { ...delivery, messages: [...delivery.messages].reverse() };
        },
      };
      return { store: reversed };
    };
    orderAndFields(suiteTools('reversed', open, options));
    expect(await failedOf(tests)).toContain(
      'each inbox gives its messages in the order it got them, apart from the other inboxes',
    );
  });
});
