import { randomUUID } from 'node:crypto';
import { TaskTools } from '@raider/todo-tools';
import { describeTaskStoreConformance } from '@raider/todo-tools/conformance';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openPostgresLists } from '../src/index.js';

const url = inject('databaseUrl');
const lists = openPostgresLists({ connectionString: url });
const extra: ReturnType<typeof openPostgresLists>[] = [];
afterAll(async () => {
  await lists.close();
  for (const other of extra) await other.close();
});

// Each handle its own pool, as another server process would have.
describeTaskStoreConformance(
  'openPostgresLists',
  async () => {
    const id = `conformance-${randomUUID()}`;
    return {
      handle: () => {
        const other = openPostgresLists({ connectionString: url });
        extra.push(other);
        return other.list(id).tasks;
      },
    };
  },
  { describe, it, expect },
);

describe('the PostgreSQL store', () => {
  it('keeps the task list of TaskTools: one row per task, ids never reused', async () => {
    const list = lists.list(`tools-${randomUUID()}`);
    const tools = new TaskTools({ store: list.tasks });
    await tools.createTask({ subject: 'A', description: '', metadata: { b: 1, a: { z: [1, 2], y: null } } });
    await tools.createTask({ subject: 'B', description: '' });
    await tools.updateTask({ taskId: '2', addBlockedBy: ['1'] });
    await tools.updateTask({ taskId: '2', status: 'deleted' });
    const again = new TaskTools({ store: list.tasks });
    expect((await again.createTask({ subject: 'C', description: '' })).text).toBe('Task #3 created successfully: C');
    expect(again.listTasks()).toBe('#1 [pending] A\n#3 [pending] C');
    // Metadata keeps its keys in the order they were given.
    expect(JSON.stringify(again.tasks()[0]?.metadata)).toBe('{"b":1,"a":{"z":[1,2],"y":null}}');
  });

  it('a task holding U+0000, which PostgreSQL cannot store, is refused before the database, naming the field', async () => {
    const list = lists.list(`nul-${randomUUID()}`);
    const tools = new TaskTools({ store: list.tasks });
    expect(await tools.createTask({ subject: 'before\u0000after', description: '' })).toEqual({
      text: "Error: the task list could not be read or saved: task #1: subject: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at 6; nothing was changed",
      isError: true,
    });
    await tools.createTask({ subject: 'A', description: '' });
    expect((await tools.updateTask({ taskId: '1', metadata: { notes: ['ok', 'x\u0000'] } })).text).toBe(
      "Error: the task list could not be read or saved: task #1: metadata.notes[1]: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at 1; nothing was changed",
    );
    expect((await tools.updateTask({ taskId: '1', metadata: { 'line\nkey': { 'k\u0000': 1 } } })).text).toBe(
      "Error: the task list could not be read or saved: task #1: metadata.line⏎key: a key: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at 1; nothing was changed",
    );
    // Nothing was stored: the list reads as before.
    const again = new TaskTools({ store: list.tasks });
    await again.syncTasks();
    expect(again.listTasks()).toBe('#1 [pending] A');
    expect(again.tasks()[0]?.metadata).toBeUndefined();
  });

  it('the other families keep their state whole', async () => {
    const list = lists.list(`whole-${randomUUID()}`);
    expect(await list.todoWrite.load()).toBeUndefined();
    await list.todoWrite.transact(() => ({
      next: { todos: [{ content: 'W', status: 'pending', activeForm: 'W' }] },
      result: 0,
    }));
    expect(await list.todoWrite.load()).toEqual({ todos: [{ content: 'W', status: 'pending', activeForm: 'W' }] });
    expect(await list.todo.load()).toBeUndefined();
  });

  it('a NOTIFY wakes the watchers of the list on another connection', async () => {
    const id = `notify-${randomUUID()}`;
    const other = openPostgresLists({ connectionString: url });
    extra.push(other);
    const woken: string[] = [];
    other.list(id).watch(() => woken.push('a'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    woken.length = 0;
    await new TaskTools({ store: lists.list(id).tasks }).createTask({ subject: 'A', description: '' });
    await expect.poll(() => woken.length, { timeout: 5000 }).toBeGreaterThan(0);
  });

  it('a connection the server ends in the middle of a call: a clear error, no crash, and the next call works', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // The hook runs inside the call's transaction: end that connection from the server side then.
      const tools = new TaskTools({
        store: lists.list(`killed-${randomUUID()}`).tasks,
        beforeTask: async () => {
          await admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()",
          );
          await new Promise((resolve) => setTimeout(resolve, 100));
          return undefined;
        },
      });
      const answer = await tools.createTask({ subject: 'A', description: '' });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(
        /^Error: the task list could not be read or saved: PostgreSQL at .* is unreachable \(.*\); nothing was changed$/,
      );
      const after = new TaskTools({ store: lists.list(`killed-after-${randomUUID()}`).tasks });
      expect((await after.createTask({ subject: 'B', description: '' })).text).toBe('Task #1 created successfully: B');
    } finally {
      await admin.end();
    }
  });

  it('an unreachable database: a clear error, no crash, and the list id is checked', async () => {
    const down = openPostgresLists({
      connectionString: 'postgres://raider:secret@127.0.0.1:1/raider',
      connectTimeoutMs: 1000,
    });
    extra.push(down);
    const tools = new TaskTools({ store: down.list('x').tasks });
    const answer = await tools.createTask({ subject: 'A', description: '' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /^Error: the task list could not be read or saved: PostgreSQL at 127\.0\.0\.1:1\/raider is unreachable \(.*ECONNREFUSED.*\); nothing was changed$/,
    );
    expect(answer.text).not.toContain('secret');
    expect(() => lists.list('')).toThrow('list id: expected 1 to 200 characters, received 0');
  });
});
