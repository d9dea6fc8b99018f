import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ListStore,
  memoryListStore,
  memoryTaskStore,
  type TaskStore,
  type TodoSnapshot,
  TodoTool,
  type TodoWriteState,
} from '../index.js';
import { closeClients, SDK_MAJORS } from '../testing/sdk-majors.js';

/** A store whose every read and transaction fails, as a corrupt file would. */
function brokenStore<T>(message: string): ListStore<T> {
  return {
    load: () => Promise.reject(new Error(message)),
    transact: () => Promise.reject(new Error(message)),
  };
}

/** A task store whose every read and transaction fails. */
function brokenTaskStore(message: string): TaskStore {
  return {
    load: () => Promise.reject(new Error(message)),
    changesSince: () => Promise.reject(new Error(message)),
    transact: () => Promise.reject(new Error(message)),
  };
}

afterEach(closeClients);

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text;

describe.each(SDK_MAJORS)(
  'the task tools and todo_write with a store (SDK v$major)',
  ({ TaskTools, TodoWriteTool, connect: client }) => {
    it('two objects on one store share one list, with unique ids under concurrent calls', async () => {
      const store = memoryTaskStore();
      const a = await client(new TaskTools({ store }).server);
      const b = await client(new TaskTools({ store }).server);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).callTool({ name: 'task_create', arguments: { subject: `T${i}`, description: '' } }),
        ),
      );
      const ids = answers.map((r) => /^Task #(\d+) /.exec(text(r) ?? '')?.[1]);
      expect(new Set(ids).size).toBe(20);
      expect(text(await a.callTool({ name: 'task_list', arguments: {} }))?.split('\n')).toHaveLength(20);
      await b.callTool({ name: 'task_update', arguments: { taskId: '1', status: 'completed' } });
      expect(text(await a.callTool({ name: 'task_get', arguments: { taskId: '1' } }))).toContain('Status: completed');
      expect((await store.load()).tasks).toHaveLength(20);
    });

    it('a restart keeps the list and the high-water mark: a deleted last id is not used again', async () => {
      const store = memoryTaskStore();
      const first = new TaskTools({ store });
      const c1 = await client(first.server);
      for (const s of ['A', 'B', 'C'])
        await c1.callTool({ name: 'task_create', arguments: { subject: s, description: '' } });
      await c1.callTool({ name: 'task_update', arguments: { taskId: '3', status: 'deleted' } });
      expect(await store.load()).toMatchObject({ highWaterMark: 3 });
      const c2 = await client(new TaskTools({ store }).server);
      expect(text(await c2.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] A\n#2 [pending] B');
      expect(text(await c2.callTool({ name: 'task_create', arguments: { subject: 'D', description: '' } }))).toBe(
        'Task #4 created successfully: D',
      );
    });

    it('a store that cannot be read: an error result naming the problem, nothing changed, no onUpdate', async () => {
      const onUpdate = vi.fn();
      const c = await client(
        new TaskTools({ store: brokenTaskStore('/data/x.json: not valid JSON'), onUpdate }).server,
      );
      for (const [name, args] of [
        ['task_create', { subject: 'A', description: '' }],
        ['task_list', {}],
        ['task_get', { taskId: '1' }],
      ] as const) {
        const result = await c.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        expect(text(result)).toBe('Error: the task list could not be read or saved: /data/x.json: not valid JSON');
      }
      expect(onUpdate).not.toHaveBeenCalled();
    });

    it('a stored list that is malformed is refused, not half-loaded', async () => {
      const store = memoryTaskStore({ tasks: [{ id: 'x' } as never], highWaterMark: 1 });
      const c = await client(new TaskTools({ store }).server);
      const result = await c.callTool({ name: 'task_create', arguments: { subject: 'A', description: '' } });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(
        /^Error: the task list could not be read or saved: the stored task "x": id: expected a decimal id/,
      );
      expect(await store.load()).toEqual({ tasks: [{ id: 'x' }], highWaterMark: 1, seq: 0 });
    });

    it('todo_write keeps its last list in its store', async () => {
      const store = memoryListStore<TodoWriteState>();
      const c = await client(new TodoWriteTool({ store }).server);
      await c.callTool({ name: 'todo_write', arguments: { todos: [{ content: 'A', status: 'pending' }] } });
      expect(await store.load()).toEqual({ todos: [{ content: 'A', status: 'pending', activeForm: 'A' }] });
      const failing = await client(new TodoWriteTool({ store: brokenStore('disk full') }).server);
      const result = await failing.callTool({ name: 'todo_write', arguments: { todos: [] } });
      expect(text(result)).toBe('Error: the todo list could not be read or saved: disk full');
    });
  },
);

describe('the todo family with a store', () => {
  it('shares one list between objects and survives a restart', async () => {
    const store = memoryListStore<TodoSnapshot>();
    const a = new TodoTool({ store });
    const b = new TodoTool({ store });
    expect((await a.callAsync({ action: 'create', subject: 'A' })).content[0].text).toBe('Created #1: A (pending)');
    expect((await b.callAsync({ action: 'create', subject: 'B' })).content[0].text).toBe('Created #2: B (pending)');
    await a.callAsync({ action: 'delete', id: 2 });
    const c = new TodoTool({ store });
    expect((await c.callAsync({ action: 'list', includeDeleted: true })).content[0].text).toBe(
      '[pending] #1 A\n[deleted] #2 B',
    );
    expect((await c.callAsync({ action: 'create', subject: 'C' })).content[0].text).toBe('Created #3: C (pending)');
    expect(await store.load()).toMatchObject({ nextId: 4 });
  });

  it('a failing store: an error envelope, nothing written', async () => {
    const tool = new TodoTool({ store: brokenStore('/data/y.json: unexpected end of JSON input') });
    const result = await tool.callAsync({ action: 'create', subject: 'A' });
    expect(result.content[0].text).toBe(
      'Error: the list could not be read or saved: /data/y.json: unexpected end of JSON input',
    );
    expect(result.details.error).toBe(
      'the list could not be read or saved: /data/y.json: unexpected end of JSON input',
    );
    expect(result.details.action).toBe('create');
  });

  it('rejected calls write nothing', async () => {
    const store = memoryListStore<TodoSnapshot>();
    const transact = vi.spyOn(store, 'transact');
    const tool = new TodoTool({ store });
    await tool.callAsync({ action: 'create', subject: 'A' });
    const before = await store.load();
    await tool.callAsync({ action: 'update', id: 1, status: 'bogus' });
    await tool.callAsync({ action: 'list' });
    expect(await store.load()).toEqual(before);
    expect(transact).toHaveBeenCalledTimes(3);
  });
});
