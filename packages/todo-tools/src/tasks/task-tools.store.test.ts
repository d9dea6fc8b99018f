// The task tools on a task store: what a call writes (only what it touched), and changes made by
// another holder reaching this one through the feed.
import { describe, expect, it, vi } from 'vitest';
import { MAX_TASK_ID, memoryTaskStore, type TaskStore, TaskTools, type TaskWrite } from '../index.js';

/** A store that records every write it commits. */
function recording(store: TaskStore): { store: TaskStore; writes: TaskWrite[] } {
  const writes: TaskWrite[] = [];
  return {
    writes,
    store: {
      ...store,
      transact: (seq, fn) =>
        store.transact(seq, async (catchUp) => {
          const outcome = await fn(catchUp);
          if (outcome.write) writes.push(structuredClone(outcome.write));
          return outcome;
        }),
    },
  };
}

describe('the task tools on a task store', () => {
  it('a call writes only the tasks it touched, in Claude Code’s record shape', async () => {
    const { store, writes } = recording(memoryTaskStore());
    const tools = new TaskTools({ store });
    for (const subject of ['A', 'B', 'C', 'D']) await tools.createTask({ subject, description: '' });
    writes.length = 0;
    await tools.updateTask({ taskId: '2', addBlockedBy: ['1'] });
    expect(writes).toEqual([
      {
        put: [
          { id: '2', subject: 'B', description: '', status: 'pending', blocks: [], blockedBy: ['1'] },
          { id: '1', subject: 'A', description: '', status: 'pending', blocks: ['2'], blockedBy: [] },
        ],
        removed: [],
        highWaterMark: 4,
      },
    ]);
    writes.length = 0;
    await tools.updateTask({ taskId: '1', status: 'deleted' });
    expect(writes).toEqual([
      {
        put: [{ id: '2', subject: 'B', description: '', status: 'pending', blocks: [], blockedBy: [] }],
        removed: ['1'],
        highWaterMark: 4,
      },
    ]);
    writes.length = 0;
    await tools.updateTask({ taskId: '3', status: 'pending' });
    await tools.updateTask({ taskId: '99', status: 'completed' });
    expect(writes).toEqual([]);
  });

  it("another holder's changes show at the next call, and syncTasks hands them to onUpdate", async () => {
    const store = memoryTaskStore();
    const onUpdate = vi.fn();
    const a = new TaskTools({ store, onUpdate });
    const b = new TaskTools({ store });
    await a.createTask({ subject: 'A', description: '' });
    onUpdate.mockClear();
    await b.createTask({ subject: 'B', description: '' });
    await b.updateTask({ taskId: '1', status: 'completed', owner: 'bob' });
    expect(await a.syncTasks()).toBe(true);
    expect(onUpdate).toHaveBeenCalledTimes(1);
    expect(onUpdate.mock.calls[0]?.[0].map((t: { id: string; status: string }) => `${t.id}:${t.status}`)).toEqual([
      '1:completed',
      '2:pending',
    ]);
    expect(await a.syncTasks()).toBe(false);
    expect(a.listTasks()).toBe('#1 [completed] A (bob)\n#2 [pending] B');
    await b.updateTask({ taskId: '2', status: 'deleted' });
    expect((await a.createTask({ subject: 'C', description: '' })).text).toBe('Task #3 created successfully: C');
    expect(a.tasks().map((t) => t.id)).toEqual(['1', '3']);
  });

  it('a failed commit leaves no trace: the next call loads the stored list whole', async () => {
    const inner = memoryTaskStore();
    let fail = false;
    const store: TaskStore = {
      ...inner,
      transact: (seq, fn) =>
        inner.transact(seq, async (catchUp) => {
          const outcome = await fn(catchUp);
          if (fail) throw new Error('disk full');
          return outcome;
        }),
    };
    const tools = new TaskTools({ store });
    await tools.createTask({ subject: 'A', description: '' });
    fail = true;
    expect((await tools.createTask({ subject: 'B', description: '' })).text).toBe(
      'Error: the task list could not be read or saved: disk full',
    );
    fail = false;
    expect((await tools.createTask({ subject: 'C', description: '' })).text).toBe('Task #2 created successfully: C');
    expect((await inner.load()).tasks.map((t) => t.subject)).toEqual(['A', 'C']);
  });

  it('ids end at MAX_TASK_ID: the last one is handed out, then a create is refused with a clear error', async () => {
    const store = memoryTaskStore({ highWaterMark: MAX_TASK_ID - 1 });
    const tools = new TaskTools({ store });
    expect((await tools.createTask({ subject: 'Last', description: '' })).text).toBe(
      `Task #${MAX_TASK_ID} created successfully: Last`,
    );
    const refused = await tools.createTask({ subject: 'One too many', description: '' });
    expect(refused).toEqual({
      text: 'Error: the list has handed out every id up to 9007199254740991, the highest a task list can hand out; start a new list',
      isError: true,
    });
    expect(tools.listTasks()).toBe('#9007199254740991 [pending] Last');
  });

  it('a store that cannot tell whether it committed: the answer says the change may have been saved, and the next call reads the list whole', async () => {
    const inner = memoryTaskStore();
    let lost = false;
    // Commits, then loses the acknowledgement (a connection that broke during COMMIT).
    const store: TaskStore = {
      ...inner,
      transact: async (seq, fn) => {
        const committed = await inner.transact(seq, fn);
        if (lost) throw Object.assign(new Error('the connection was lost during COMMIT'), { mayHaveBeenSaved: true });
        return committed;
      },
    };
    const tools = new TaskTools({ store });
    await tools.createTask({ subject: 'A', description: '' });
    lost = true;
    expect((await tools.createTask({ subject: 'B', description: '' })).text).toBe(
      'Error: the task list change may have been saved, or not: the connection was lost during COMMIT; read the list before trying again',
    );
    lost = false;
    // What was committed shows: the model that reads the list finds B, and does not make it twice.
    await tools.syncTasks();
    expect(tools.getTask('2')).toContain('Task #2: B');
    expect((await tools.createTask({ subject: 'C', description: '' })).text).toBe('Task #3 created successfully: C');
  });
});

describe('onChange: observers get what changed, not the list', () => {
  it('a call hands on the tasks it touched and the ids it removed; a call that changed nothing, nothing', async () => {
    const changes: unknown[] = [];
    const tools = new TaskTools({ onChange: (change) => changes.push(change) });
    for (const subject of ['A', 'B', 'C']) await tools.createTask({ subject, description: '' });
    changes.length = 0;
    await tools.updateTask({ taskId: '2', addBlockedBy: ['1'] });
    expect(changes).toEqual([
      {
        put: [
          expect.objectContaining({ id: '2', blockedBy: ['1'] }),
          expect.objectContaining({ id: '1', blocks: ['2'] }),
        ],
        removed: [],
        whole: false,
      },
    ]);
    changes.length = 0;
    await tools.updateTask({ taskId: '1', status: 'deleted' });
    expect(changes).toEqual([
      { put: [expect.objectContaining({ id: '2', blockedBy: [] })], removed: ['1'], whole: false },
    ]);
    changes.length = 0;
    await tools.updateTask({ taskId: '3', status: 'pending' });
    await tools.createTask({ subject: '', description: '' });
    expect(changes).toEqual([]);
  });

  it('a change reads as plain data: its keys, JSON, a spread and structuredClone show put, removed and whole', async () => {
    const changes: object[] = [];
    const tools = new TaskTools({ onChange: (change) => changes.push(change) });
    await tools.createTask({ subject: 'A', description: '' });
    const [change] = changes;
    const plain = { put: [expect.objectContaining({ id: '1', content: 'A' })], removed: [], whole: false };
    expect(Object.keys(change as object)).toEqual(['put', 'removed', 'whole']);
    expect(JSON.parse(JSON.stringify(change))).toEqual(plain);
    expect({ ...change }).toEqual(plain);
    expect(Object.keys({ ...change })).toEqual(['put', 'removed', 'whole']);
    expect(structuredClone(change)).toEqual(plain);
    // Read twice, the same copy.
    expect((change as { put: unknown }).put).toBe((change as { put: unknown }).put);
  });

  it("another holder's changes reach it as what they changed", async () => {
    const store = memoryTaskStore();
    const changes: { put: { id: string }[]; removed: string[]; whole: boolean }[] = [];
    const a = new TaskTools({ store, onChange: (change) => changes.push(change) });
    await a.createTask({ subject: 'A', description: '' });
    const b = new TaskTools({ store });
    await b.createTask({ subject: 'B', description: '' });
    changes.length = 0;
    await a.syncTasks();
    expect(changes.map((c) => [c.put.map((t) => t.id), c.removed, c.whole])).toEqual([[['2'], [], false]]);
  });
});
