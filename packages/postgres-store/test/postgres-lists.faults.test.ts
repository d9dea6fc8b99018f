// The faults of issue 24 made for real against PostgreSQL: a server frozen (SIGSTOP) while it
// holds a list's lock, a holder that never lets go, a hook slower than the idle timeout, a COMMIT
// whose answer is lost, every connection slot taken. Short limits keep each test to seconds.
import { randomUUID } from 'node:crypto';
import { TaskTools } from '@raider/todo-tools';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { DatabaseError } from '../src/index.js';
import { figure, sleep, within } from './figures.js';
import { closeOpened, openLists as open } from './opened-lists.js';
import { backendsOf, commitLosingProxy, holdListLock, lockHolder, roleWithSlots } from './postgres-faults.js';

const url = inject('databaseUrl');
const embedded = inject('databaseEmbedded');

const create = (tools: TaskTools, subject: string) =>
  tools.createTask({ subject, description: '' }).then((answer) => answer.text);

describe('a list another server holds', () => {
  it('a server frozen (SIGSTOP) in the middle of a call is cut off after the idle timeout, and the others go on', async () => {
    const id = `frozen-${randomUUID()}`;
    const holder = await lockHolder(url, id, { idleInTransactionTimeoutMs: 1000 });
    try {
      process.kill(holder.pid as number, 'SIGSTOP');
      const frozenAt = Date.now();
      const tools = new TaskTools({ store: open().list(id).tasks });
      expect(await within(create(tools, 'A'), 20_000)).toBe('Task #1 created successfully: A');
      figure('a frozen holder (idle timeout 1 s) -> the next writer answered', Date.now() - frozenAt);
    } finally {
      holder.kill('SIGKILL');
    }
  }, 60_000);

  it('a holder never cut off: the call gives up after the lock timeout, saying another server holds the list and nothing was changed', async () => {
    const id = `held-${randomUUID()}`;
    await open().list(id).tasks.load(); // the schema is there
    const holder = await holdListLock(url, id);
    try {
      const tools = new TaskTools({ store: open({ lockTimeoutMs: 1000 }).list(id).tasks });
      const started = Date.now();
      expect(await within(create(tools, 'A'), 20_000)).toMatch(
        /^Error: the task list could not be read or saved: PostgreSQL at .+: another server holds the list \(its lock was not free within 1 s \(lockTimeoutMs\)\); nothing was changed$/,
      );
      figure('a waiter with lock timeout 1 s gave up after', Date.now() - started);
    } finally {
      await holder.release();
    }
    expect((await open().list(id).tasks.load()).tasks).toEqual([]);
  }, 60_000);

  it('a beforeTask hook slower than the idle timeout fails its call, and nothing was changed', async () => {
    const id = `slow-hook-${randomUUID()}`;
    const tools = new TaskTools({
      store: open({ idleInTransactionTimeoutMs: 300 }).list(id).tasks,
      beforeTask: async () => {
        await sleep(1200);
        return undefined;
      },
    });
    expect(await within(create(tools, 'A'), 20_000)).toMatch(
      /^Error: the task list could not be read or saved: PostgreSQL at .+ ended the call's transaction after it sat idle for more than 0\.3 s \(idleInTransactionTimeoutMs; is a beforeTask hook that slow\?\); nothing was changed$/,
    );
    expect((await open().list(id).tasks.load()).tasks).toEqual([]);
  }, 60_000);
});

describe('a COMMIT whose answer is lost', () => {
  it('the change may have been saved: the error says so (mayHaveBeenSaved), never that nothing was changed', async () => {
    const proxy = await commitLosingProxy(url);
    try {
      const lists = open({ connectionString: proxy.url });
      const id = `lost-commit-${randomUUID()}`;
      const tools = new TaskTools({ store: lists.list(id).tasks });
      expect(await create(tools, 'A')).toBe('Task #1 created successfully: A');
      proxy.loseNextCommitAnswer();
      expect(await create(tools, 'B')).toMatch(
        /^Error: the task list change may have been saved, or not: PostgreSQL at 127\.0\.0\.1:\d+\/\w+: the connection was lost during COMMIT \(.+\); read the list before trying again$/,
      );
      // It was saved (the proxy let the COMMIT through): what the issue saw answered as nothing changed.
      expect((await open().list(id).tasks.load()).tasks.map((task) => task.subject)).toEqual(['A', 'B']);
      expect(await create(tools, 'C')).toBe('Task #3 created successfully: C');

      // The families kept whole say the same.
      proxy.loseNextCommitAnswer();
      const todos = [{ content: 'W', status: 'pending' as const, activeForm: 'W' }];
      const lost = await lists
        .list(id)
        .todoWrite.transact(() => ({ next: { todos }, result: 0 }))
        .catch((error: unknown) => error);
      expect(DatabaseError.isInstance(lost)).toBe(true);
      expect((lost as DatabaseError).mayHaveBeenSaved).toBe(true);
      expect((lost as DatabaseError).message).toMatch(/: the connection was lost during COMMIT \(.+\)$/);
      expect(await open().list(id).todoWrite.load()).toEqual({ todos });
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a failure before the COMMIT is not one that may have been saved', async () => {
    const down = open({ connectionString: 'postgres://raider:secret@127.0.0.1:1/raider', connectTimeoutMs: 300 });
    const error = await down
      .list('x')
      .todoWrite.transact(() => ({ next: { todos: [] }, result: 0 }))
      .catch((caught: unknown) => caught);
    expect(DatabaseError.isInstance(error)).toBe(true);
    expect((error as DatabaseError).mayHaveBeenSaved).toBe(false);
    expect((error as DatabaseError).message).toMatch(/ is unreachable \(.+\); nothing was changed$/);
  });
});

describe('every connection slot taken', () => {
  it.skipIf(!embedded)(
    'a call waits for a slot and goes through once one frees; another server gives its idle slots back within about a second',
    async () => {
      const role = await roleWithSlots(url, 3);
      const database = new URL(role.url).pathname.slice(1);
      try {
        // Another program holds every slot the role has.
        const others = await Promise.all(
          [1, 2, 3].map(async () => {
            const client = new pg.Client({ connectionString: role.url });
            await client.connect();
            return client;
          }),
        );
        const waiting = open({ connectionString: role.url, maxConnections: 3 });
        const call = create(new TaskTools({ store: waiting.list('slots').tasks }), 'A');
        await sleep(500);
        const freed = Date.now();
        await Promise.all(others.map((client) => client.end()));
        expect(await within(call, 20_000)).toBe('Task #1 created successfully: A');
        figure('every slot taken, one freed -> the waiting call answered', Date.now() - freed);
        await waiting.close();

        // A burst on another server fills every slot; its pool gives them back once idle.
        const busy = open({ connectionString: role.url, maxConnections: 3 });
        await Promise.all([1, 2, 3].map((n) => create(new TaskTools({ store: busy.list(`burst-${n}`).tasks }), 'B')));
        expect(await backendsOf(url, database)).toHaveLength(3);
        const started = Date.now();
        const next = open({ connectionString: role.url, maxConnections: 3 });
        expect(await within(create(new TaskTools({ store: next.list('slots').tasks }), 'C'), 20_000)).toBe(
          'Task #2 created successfully: C',
        );
        figure("another server's burst ended -> this server's call answered", Date.now() - started);
      } finally {
        await closeOpened();
        await role.drop();
      }
    },
    60_000,
  );
});
