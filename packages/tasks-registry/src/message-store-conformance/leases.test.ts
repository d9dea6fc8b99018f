import { describe, expect, it } from 'vitest';
import { collectingRunner, failedOf } from '../../test/collecting-runner.js';
import { memoryMessageStore } from '../memory-message-store.js';
import type { MessageStore } from '../message-store.js';
import { suiteTools } from '../message-store-conformance.js';
import { leases } from './leases.js';

describe('the group of leases', () => {
  it('registers its six tests, and passes the memory store', async () => {
    const { options, tests } = collectingRunner();
    leases(suiteTools('memory', ({ limits }) => ({ store: memoryMessageStore({ limits }) }), options));
    expect(tests).toHaveLength(6);
    expect(await failedOf(tests)).toEqual([]);
  }, 60_000);

  it('fails a store whose done removes nothing (the messages come back after the lease)', async () => {
    const { options, tests } = collectingRunner();
    const open = () => {
      const store = memoryMessageStore();
      const forgetful: MessageStore = {
        ...store,
        take: async (agent, takeOptions) => ({ ...(await store.take(agent, takeOptions)), done: async () => {} }),
      };
      return { store: forgetful };
    };
    leases(suiteTools('forgetful', open, options));
    expect(await failedOf(tests)).toContain(
      'done removes the messages for good: not after the lease, not on another handle; done is idempotent',
    );
  }, 60_000);
});
