// Rules that hold whatever a client sends: nesting, merged metadata size, dependency cycles.
import { describe, expect, it } from 'vitest';
import { TaskTools, TodoTool } from './index.js';

/** Arrays nested `depth` deep: `[[[…]]]`, a few KB for thousands of levels. */
function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i += 1) value = [value];
  return value;
}

describe('metadata nesting', () => {
  it('the task tools refuse metadata nested deeper than maxMetadataDepth, before storing anything', async () => {
    const todos = new TaskTools();
    for (const depth of [2_000, 4_500, 100_000]) {
      const answer = await todos.createTask({ subject: 'Deep', description: '', metadata: { k: nested(depth) } });
      expect(answer).toEqual({
        text: 'Error: metadata: expected at most 32 levels of nesting, received a value nested deeper',
        isError: true,
      });
    }
    // 31 levels inside the record (32 with it) is fine; one more is not.
    expect((await todos.createTask({ subject: 'Ok', description: '', metadata: { k: nested(31) } })).isError).toBe(
      false,
    );
    expect((await todos.updateTask({ taskId: '1', metadata: { k: nested(32) } })).isError).toBe(true);
    expect(todos.tasks()).toHaveLength(1);
    // Every later call works.
    expect(todos.listTasks()).toBe('#1 [pending] Ok');
    expect(todos.getTask('1')).toContain('Task #1: Ok');
  });

  it('the todo family refuses it too, in its envelope, and the limit is an option', () => {
    const tool = new TodoTool({ limits: { maxMetadataDepth: 4 } });
    expect(tool.call({ action: 'create', subject: 'A', metadata: { k: nested(4) } }).details.error).toBe(
      'metadata: expected at most 4 levels of nesting, received a value nested deeper',
    );
    expect(tool.call({ action: 'create', subject: 'A', metadata: { k: nested(3) } }).details.error).toBeUndefined();
    expect(
      new TodoTool().call({ action: 'create', subject: 'A', metadata: { k: nested(5_000) } }).details.error,
    ).toMatch(/levels of nesting/);
  });
});

describe('metadata size', () => {
  it('the todo family checks the limit on the merged record, not only on what one call sends', () => {
    const tool = new TodoTool();
    tool.call({ action: 'create', subject: 'Grows' });
    let refused = 0;
    for (let i = 0; i < 50; i += 1) {
      const result = tool.call({ action: 'update', id: 1, metadata: { [`key${i}`]: 'x'.repeat(9_000) } });
      if (result.details.error) {
        refused += 1;
        expect(result.details.error).toMatch(
          /^metadata: expected at most 10000 characters as JSON once merged into #1's, received \d+ characters$/,
        );
      }
    }
    expect(refused).toBe(49);
    const stored = tool.snapshot().tasks[0]?.metadata ?? {};
    expect(JSON.stringify(stored).length).toBeLessThanOrEqual(10_000);
  });
});

describe('dependency cycles', () => {
  it('task_update refuses addBlocks and addBlockedBy that would close a cycle, changing nothing', async () => {
    const todos = new TaskTools();
    for (const subject of ['A', 'B', 'C']) await todos.createTask({ subject, description: '' });
    await todos.updateTask({ taskId: '2', addBlockedBy: ['1'] });
    await todos.updateTask({ taskId: '3', addBlockedBy: ['2'] });
    const before = todos.tasks();
    expect(await todos.updateTask({ taskId: '1', addBlockedBy: ['3'] })).toEqual({
      text: 'Error: addBlockedBy: expected ids of tasks that do not wait on #1, received "3" (#3 already waits on #1: a cycle would block them both for ever)',
      isError: true,
    });
    expect(await todos.updateTask({ taskId: '3', addBlocks: ['1'] })).toEqual({
      text: 'Error: addBlocks: expected ids of tasks #3 does not wait on, received "1" (#3 already waits on #1: a cycle would block them both for ever)',
      isError: true,
    });
    // Two links in one call that close a cycle between them.
    await todos.createTask({ subject: 'D', description: '' });
    expect((await todos.updateTask({ taskId: '4', addBlockedBy: ['3'], addBlocks: ['1'] })).isError).toBe(true);
    expect(todos.tasks().slice(0, 3)).toEqual(before);
    // A link that closes no cycle is fine.
    expect((await todos.updateTask({ taskId: '4', addBlockedBy: ['3'] })).text).toBe('Updated task #4 blockedBy');
  });
});

describe('a stored list with metadata nested too deep (written before the limit, or by hand)', () => {
  const storeOf = (state: unknown) => ({
    load: async () => state,
    transact: async (fn: (current: unknown) => unknown) => ((await fn(state)) as { result: unknown }).result,
  });

  it('is refused with a clear error naming the task, not a stack overflow', async () => {
    const deep = nested(4_500);
    const task = { id: '1', subject: 'A', status: 'pending', description: '', blocks: [], blockedBy: [] };
    const snapshot = { tasks: [{ ...task, metadata: { deep } }], highWaterMark: 1, seq: 0 };
    const tools = new TaskTools({
      store: {
        load: async () => snapshot,
        changesSince: async () => undefined,
        transact: async (_seq: number, fn: (catchUp: unknown) => Promise<{ result: unknown }>) => ({
          result: (await fn(snapshot)).result,
          seq: 0,
        }),
      } as never,
    });
    expect((await tools.createTask({ subject: 'B', description: '' })).text).toBe(
      "Error: the task list could not be read or saved: the stored list: task #1's metadata nests deeper than 32 levels; fix or remove it",
    );
    const todo = new TodoTool({
      store: storeOf({ tasks: [{ id: 1, subject: 'A', status: 'pending', metadata: { deep } }], nextId: 2 }) as never,
    });
    expect((await todo.callAsync({ action: 'list' })).details.error).toBe(
      "the list could not be read or saved: the stored list: task #1's metadata nests deeper than 32 levels; fix or remove it",
    );
    expect(() =>
      new TodoTool().restore({
        tasks: [{ id: 1, subject: 'A', status: 'pending', metadata: { deep } }],
        nextId: 2,
      } as never),
    ).toThrow(/TodoTool.restore: task #1's metadata nests deeper than 32 levels/);
  });
});
