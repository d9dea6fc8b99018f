// The agents' inboxes in PostgreSQL: the MessageStore contract of @raider/tasks-registry, with two
// openPostgresLists handles on one database as two server processes, and what only a database
// store has to prove: a NOTIFY lost, a lease that lapses in a process that died, the inbox's
// bound under concurrent sends, a COMMIT whose answer is lost, the database unreachable.
import { randomUUID } from 'node:crypto';
import { MessageLimitError, type MessageStore, RegistryArgumentError } from '@raider/tasks-registry';
import { describeMessageStoreConformance } from '@raider/tasks-registry/conformance';
import { describe, expect, inject, it } from 'vitest';
import { DatabaseError, openPostgresLists } from '../src/index.js';
import { MIGRATIONS } from '../src/schema.js';
import { openLists as open } from './opened-lists.js';
import { commitLosingProxy, freshDatabase, runSql } from './postgres-faults.js';

const url = inject('databaseUrl');

const plain = (to: string, text: string) => ({ to, text, notification: false });

// Each handle its own pool and LISTEN connection, as another server process would have.
describeMessageStoreConformance(
  'PostgresList.messages',
  ({ limits }) => {
    const id = `messages-${randomUUID()}`;
    const handles = [openPostgresLists({ connectionString: url, messageLimits: limits })];
    return {
      store: (handles[0] as ReturnType<typeof openPostgresLists>).list(id).messages,
      other: async () => {
        const other = openPostgresLists({ connectionString: url, messageLimits: limits });
        handles.push(other);
        return other.list(id).messages;
      },
      close: async () => {
        await Promise.all(handles.map((handle) => handle.close()));
      },
    };
  },
  { describe, it, expect },
);

/** A watcher of `agent` in `store`: the times it was called. */
function watching(store: MessageStore, agent: string): number[] {
  const calls: number[] = [];
  store.watch(agent, () => calls.push(Date.now()));
  return calls;
}

describe('the inboxes in PostgreSQL', () => {
  it('a send whose NOTIFY never came is heard at the next heartbeat', async () => {
    const id = `no-notify-${randomUUID()}`;
    const store = open({ heartbeatMs: 200 }).list(id).messages;
    await store.send(plain('bob', 'first')); // the schema is there
    const calls = watching(store, 'bob');
    await expect.poll(() => calls.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const inserted = Date.now();
    // A message with no NOTIFY, as when the notification was lost on the way.
    await runSql(
      url,
      "INSERT INTO raider_messages (list_id, recipient, text, notification, send_token) VALUES ($1, 'bob', 'quiet', false, gen_random_uuid())",
      [id],
    );
    await expect.poll(() => calls.some((at) => at >= inserted), { timeout: 20_000, interval: 50 }).toBe(true);
    expect((await store.peek('bob')).map((message) => message.text)).toEqual(['first', 'quiet']);
  });

  it('a lease that lapses in a process that died (no timer of its own left) wakes the watchers at the next heartbeat', async () => {
    const id = `dead-taker-${randomUUID()}`;
    const store = open({ heartbeatMs: 200 }).list(id).messages;
    await store.send(plain('bob', 'held'));
    const leasedAt = Date.now();
    // What a taker that died leaves: a lease nobody will end, lapsing in 1 s.
    await runSql(
      url,
      "UPDATE raider_messages SET lease_until = now() + interval '1 second', lease_token = gen_random_uuid() WHERE list_id = $1",
      [id],
    );
    expect(await store.peek('bob')).toEqual([]);
    const calls = watching(store, 'bob');
    await expect.poll(() => calls.length, { timeout: 20_000 }).toBeGreaterThan(0);
    // Nothing moves before the lease lapses: the call that comes after it is the heartbeat's.
    await expect.poll(() => calls.some((at) => at >= leasedAt + 900), { timeout: 20_000, interval: 50 }).toBe(true);
    expect((await store.take('bob')).messages.map((message) => message.text)).toEqual(['held']);
  });

  it("a former taker's done does not remove what another take got after its lease lapsed", async () => {
    const id = `retaken-${randomUUID()}`;
    const first = open().list(id).messages;
    const second = open().list(id).messages;
    const sent = await first.send(plain('bob', 'once'));
    const lapsed = await first.take('bob', { leaseMs: 200 });
    await expect.poll(async () => (await second.peek('bob')).length, { timeout: 20_000, interval: 50 }).toBe(1);
    const retaken = await second.take('bob', { leaseMs: 60_000 });
    expect(retaken.messages).toEqual([sent]);
    await lapsed.done();
    const rows = await runSql(url, 'SELECT id FROM raider_messages WHERE list_id = $1', [id]);
    expect(rows.map((row) => String(row.id))).toEqual([sent.id]);
    await retaken.done();
    expect(await runSql(url, 'SELECT id FROM raider_messages WHERE list_id = $1', [id])).toEqual([]);
  });

  it('concurrent sends from two servers to a nearly full inbox: exactly as many as fit are kept', async () => {
    const id = `full-${randomUUID()}`;
    const stores = [0, 1].map(() => open({ messageLimits: { maxInboxMessages: 5 } }).list(id).messages);
    await (stores[0] as MessageStore).send(plain('bob', 'm0'));
    const answers = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => (stores[index % 2] as MessageStore).send(plain('bob', `m${index + 1}`))),
    );
    const refused = answers.filter((answer) => answer.status === 'rejected');
    expect(answers.length - refused.length).toBe(4);
    for (const answer of refused) expect(MessageLimitError.isInstance(answer.reason)).toBe(true);
    const waiting = await (stores[1] as MessageStore).peek('bob');
    expect(waiting).toHaveLength(5);
    // The ids commit in the inbox's order: what a take sees is in id order, with no gap later filled.
    expect(waiting.map((message) => BigInt(message.id))).toEqual(
      waiting.map((message) => BigInt(message.id)).sort((a, b) => (a < b ? -1 : 1)),
    );
  });

  it('a send whose answer is lost after it committed is found by its token and acknowledged, stored once', async () => {
    const proxy = await commitLosingProxy(url);
    try {
      const id = `lost-answer-${randomUUID()}`;
      const store = open({ connectionString: proxy.url }).list(id).messages;
      await store.send(plain('bob', 'before'));
      proxy.loseNextAnswerTo(/raider_send/);
      const sent = await store.send(plain('bob', 'during'));
      expect(sent.text).toBe('during');
      const stored = await open().list(id).messages.peek('bob');
      expect(stored.map((message) => message.text)).toEqual(['before', 'during']);
      expect(stored[1]).toEqual(sent);
    } finally {
      await proxy.close();
    }
  });

  it('a send lost on the way, so not found after: the error says it may have been saved, never that it was not', async () => {
    const proxy = await commitLosingProxy(url);
    try {
      const id = `lost-send-${randomUUID()}`;
      const store = open({ connectionString: proxy.url }).list(id).messages;
      await store.send(plain('bob', 'before'));
      proxy.dropNextQuery(/raider_send/);
      const error = await store.send(plain('bob', 'during')).catch((caught: unknown) => caught);
      expect(DatabaseError.isInstance(error)).toBe(true);
      expect((error as DatabaseError).mayHaveBeenSaved).toBe(true);
      expect((error as Error).message).toMatch(
        /^PostgreSQL at 127\.0\.0\.1:\d+\/raider: the connection was lost before the write was answered \(.+\)$/,
      );
      expect((await store.peek('bob')).map((message) => message.text)).toEqual(['before']);
    } finally {
      await proxy.close();
    }
  });

  it('a database that cannot be reached: the send is refused with a DatabaseError, not saved', async () => {
    const down = open({ connectionString: 'postgres://raider:secret@127.0.0.1:1/raider', connectTimeoutMs: 300 });
    const error = await down
      .list('x')
      .messages.send(plain('bob', 'lost'))
      .catch((caught: unknown) => caught);
    expect(DatabaseError.isInstance(error)).toBe(true);
    expect((error as DatabaseError).mayHaveBeenSaved).toBe(false);
    expect((error as Error).message).toMatch(
      /^PostgreSQL at 127\.0\.0\.1:1\/raider is unreachable \(.+\); the message was not sent$/,
    );
    expect((error as Error).message).not.toContain('secret');
    const take = await down
      .list('x')
      .messages.take('bob')
      .catch((caught: unknown) => caught);
    expect((take as Error).message).toMatch(/ is unreachable \(.+\); nothing was read$/);
  });

  it('a database made by the previous version (tasks only) gets the inboxes at the first call', async () => {
    const database = await freshDatabase(url);
    try {
      await runSql(
        database.url,
        `${MIGRATIONS[0]}; CREATE TABLE raider_schema (version integer NOT NULL);
        INSERT INTO raider_schema (version) VALUES (1)`,
      );
      const lists = open({ connectionString: database.url });
      await lists.list('old').messages.send(plain('bob', 'hello'));
      expect((await lists.list('old').messages.peek('bob')).map((message) => message.text)).toEqual(['hello']);
      expect(await runSql(database.url, 'SELECT version FROM raider_schema')).toEqual([{ version: MIGRATIONS.length }]);
      await lists.close();
    } finally {
      await database.drop();
    }
  });

  it('U+0000, which PostgreSQL cannot store, is refused before the database: in a field, an agent, a list id', async () => {
    const store = open().list(`nul-${randomUUID()}`).messages;
    const refused = await store.send(plain('bob', 'a\u0000b')).catch((caught: unknown) => caught);
    expect(RegistryArgumentError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toBe(
      "send: text: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at 1",
    );
    await expect(store.take('b\u0000b')).rejects.toThrow('take: agent: expected no U+0000 character');
    expect(() => open().list('a\u0000')).toThrow(
      "list id: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at 1",
    );
    expect(await store.peek('bob')).toEqual([]);
  });

  it('messageLimits are checked when the lists are opened', () => {
    expect(() => openPostgresLists({ connectionString: url, messageLimits: { maxInboxMessages: 0 } })).toThrow(
      'openPostgresLists: messageLimits.maxInboxMessages: expected a positive integer, received 0',
    );
  });
});
