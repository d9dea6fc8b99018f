import { describe, expect, it } from 'vitest';
import { describeTaskStoreConformance } from '../conformance.js';
import { memoryTaskStore } from './task-store.js';

// The memory store is shared by whoever holds it: every handle is the same store.
describeTaskStoreConformance(
  'memoryTaskStore',
  async () => {
    const store = memoryTaskStore();
    return { handle: () => store };
  },
  { describe, it, expect },
);

describe('memoryTaskStore', () => {
  it('starts from the records it is given, copied', async () => {
    const record = { id: '2', subject: 'B', description: '', status: 'pending' as const, blocks: [], blockedBy: [] };
    const store = memoryTaskStore({ tasks: [record], highWaterMark: 4 });
    record.subject = 'changed';
    expect(await store.load()).toEqual({ tasks: [{ ...record, subject: 'B' }], highWaterMark: 4, seq: 0 });
  });

  it('answers undefined for a sequence the feed no longer reaches (a holder then loads)', async () => {
    const store = memoryTaskStore();
    let seq = 0;
    for (let i = 1; i <= 1002; i += 1) {
      const put = [
        { id: '1', subject: `v${i}`, description: '', status: 'pending' as const, blocks: [], blockedBy: [] },
      ];
      seq = (await store.transact(seq, async () => ({ write: { put, removed: [], highWaterMark: 1 }, result: 0 }))).seq;
    }
    expect(seq).toBe(1002);
    expect(await store.changesSince(1)).toBeUndefined();
    expect(await store.changesSince(5000)).toBeUndefined();
    expect((await store.changesSince(2))?.put[0]?.subject).toBe('v1002');
  });
});
