import { describe, expect, it } from 'vitest';
import { memoryMessageStore } from '../memory-message-store.js';
import { ids, LONG_LEASE_MS, plain, SHORT_AGE_MS, sendMany, sleep, texts } from './suite-context.js';

describe('the conformance suite context', () => {
  it('a plain message is not a notification, and takes the fields given', () => {
    expect(plain('bob', 'hi')).toEqual({ to: 'bob', text: 'hi', notification: false });
    expect(plain('bob', 'hi', { from: 'alice', taskId: '3' })).toEqual({
      to: 'bob',
      text: 'hi',
      notification: false,
      from: 'alice',
      taskId: '3',
    });
  });

  it('sendMany sends prefix1, prefix2, ... in turn and answers them; texts and ids read them back in order', async () => {
    const store = memoryMessageStore();
    const sent = await sendMany(store, 'alice', 'm', 3);
    expect(texts(sent)).toEqual(['m1', 'm2', 'm3']);
    expect(ids(sent)).toEqual(['1', '2', '3']);
    expect(await store.peek('alice')).toEqual(sent);
  });

  it('a long lease outlives every test and the short age is well under the poll timeout', async () => {
    expect(LONG_LEASE_MS).toBeGreaterThan(60_000);
    expect(SHORT_AGE_MS).toBeLessThan(20_000);
    const start = Date.now();
    await sleep(20);
    expect(Date.now() - start).toBeGreaterThanOrEqual(15);
  });
});
