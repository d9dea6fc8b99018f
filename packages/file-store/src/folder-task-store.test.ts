import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/cleanup.js';
import { taskRecord } from '../test/task-record.js';
import { FolderTaskStore } from './folder-task-store.js';
import { FolderWatch } from './folder-watch.js';
import { ListLock } from './list-lock.js';

/** Two holders of one list folder (as two processes would be), counting the calls that awaited `ready`. */
function holders() {
  const folder = join(tempDir(), 'list');
  let readies = 0;
  const open = () =>
    new FolderTaskStore(
      folder,
      new ListLock(folder, 10_000),
      new FolderWatch(folder, false),
      async () => {
        readies += 1;
      },
      { maxDepth: 32, keepChanges: 100, report: () => {} },
    );
  return { a: open(), b: open(), readies: () => readies };
}

describe('FolderTaskStore', () => {
  it('awaits ready before every call', async () => {
    const { a, readies } = holders();
    await a.load();
    await a.changesSince(0);
    await a.transact(-1, async () => ({ result: undefined }));
    expect(readies()).toBe(3);
  });

  it('hands a transaction the whole list when it knows no sequence, and commits its write', async () => {
    const { a, b } = holders();
    const first = await a.transact(-1, async (catchUp) => ({
      write: { put: [taskRecord('1')], removed: [], highWaterMark: 1 },
      result: 'tasks' in catchUp ? catchUp.tasks.length : -1,
    }));
    expect(first).toEqual({ result: 0, seq: 1 });
    expect(await b.load()).toEqual({ tasks: [taskRecord('1')], highWaterMark: 1, seq: 1 });
  });

  it("answers another holder's change as a delta after its sequence, and no delta for none", async () => {
    const { a, b } = holders();
    const { seq } = await b.load();
    await a.transact(-1, async () => ({
      write: { put: [taskRecord('1')], removed: [], highWaterMark: 1 },
      result: undefined,
    }));
    expect(await b.changesSince(seq)).toEqual({ seq: 1, put: [taskRecord('1')], removed: [], highWaterMark: 1 });
    expect(await b.changesSince(-1)).toBeUndefined();
  });

  it('catches a transaction up from its sequence under the lock', async () => {
    const { a, b } = holders();
    await a.transact(-1, async () => ({
      write: { put: [taskRecord('1')], removed: [], highWaterMark: 1 },
      result: undefined,
    }));
    const { seq } = await b.load();
    await a.transact(seq, async () => ({
      write: { put: [taskRecord('2')], removed: [], highWaterMark: 2 },
      result: undefined,
    }));
    const caught = await b.transact(seq, async (catchUp) => ({ result: catchUp }));
    expect(caught).toEqual({ result: { seq: 2, put: [taskRecord('2')], removed: [], highWaterMark: 2 }, seq: 2 });
  });
});
