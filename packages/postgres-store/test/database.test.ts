// The pool's three ways of running a call, against the run's PostgreSQL: one query, one write
// committed as it ends, one transaction; each failure worded with what became of the change.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { Database, type DatabaseSettings, describeTarget, seconds } from '../src/database.js';
import { DatabaseError } from '../src/errors.js';
import { commitLosingProxy } from './postgres-faults.js';

const url = inject('databaseUrl');
const SETTINGS: DatabaseSettings = {
  maxConnections: 2,
  connectTimeoutMs: 300,
  lockTimeoutMs: 0,
  idleInTransactionTimeoutMs: 0,
};
const made: Database[] = [];
afterAll(async () => {
  for (const database of made) await database.end();
});

function databaseAt(connectionString: string): Database {
  const database = new Database(connectionString, SETTINGS);
  made.push(database);
  return database;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as DatabaseError,
  );

describe('Database', () => {
  it('names the database without its password, and a time in seconds', () => {
    expect(describeTarget('postgres://raider:secret@db.example:6543/lists')).toBe(
      'PostgreSQL at db.example:6543/lists',
    );
    expect(describeTarget('not a url')).toBe('PostgreSQL');
    expect(seconds(15_000)).toBe('15 s');
    expect(seconds(500)).toBe('0.5 s');
  });

  it("answers one query's result, and a statement PostgreSQL refused as nothing changed", async () => {
    const database = databaseAt(url);
    expect(
      await database.single('nothing was read', async (client) => (await client.query('SELECT 1 AS one')).rows),
    ).toEqual([{ one: 1 }]);
    const error = await failureOf(database.single('nothing was read', (client) => client.query('SELECT nope')));
    expect(DatabaseError.isInstance(error)).toBe(true);
    expect(error?.mayHaveBeenSaved).toBe(false);
    expect(error?.message).toMatch(/^PostgreSQL at [^ ]+ refused the statement \(.*nope.*\); nothing was read$/);
  });

  it('says a database that cannot be reached is unreachable, for every way of running a call', async () => {
    const database = databaseAt('postgres://raider:secret@127.0.0.1:1/raider');
    // Each call made when it is awaited: one made early rejects unhandled while another is awaited.
    const calls = [
      () => database.single('nothing was read', async () => 0),
      () => database.autocommit('nothing was sent', async () => 0),
      () => database.transaction('BEGIN', 'nothing was changed', async () => 0),
    ];
    const outcomes = ['nothing was read', 'nothing was sent', 'nothing was changed'];
    for (const [index, call] of calls.entries()) {
      const error = await failureOf(call());
      expect(error?.mayHaveBeenSaved).toBe(false);
      expect(error?.message).toMatch(
        new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:1/raider is unreachable \\(.+\\); ${outcomes[index]}$`),
      );
      expect(error?.message).not.toContain('secret');
    }
  });

  it('a write whose connection is lost once it was sent may have been saved', async () => {
    const proxy = await commitLosingProxy(url);
    try {
      const database = databaseAt(proxy.url);
      await database.single('nothing was read', (client) => client.query('SELECT 1'));
      proxy.dropNextQuery(/SELECT 2/);
      const lost = await failureOf(database.autocommit('nothing was sent', (client) => client.query('SELECT 2')));
      expect(lost?.mayHaveBeenSaved).toBe(true);
      expect(lost?.message).toMatch(
        /^PostgreSQL at 127\.0\.0\.1:\d+\/\w+: the connection was lost before the write was answered \(.+\)$/,
      );
    } finally {
      await proxy.close();
    }
  });

  it('a transaction whose COMMIT answer is lost after it wrote may have been saved', async () => {
    const proxy = await commitLosingProxy(url);
    try {
      const database = databaseAt(proxy.url);
      // The schema's migration (a transaction of its own) is done before the COMMIT is armed.
      await database.single('nothing was read', (client) => client.query('SELECT 1'));
      proxy.loseNextCommitAnswer();
      const lost = await failureOf(
        database.transaction('BEGIN', 'nothing was changed', async (client, wrote) => {
          await client.query('SELECT 1');
          wrote();
        }),
      );
      expect(lost?.mayHaveBeenSaved).toBe(true);
      expect(lost?.message).toMatch(
        /^PostgreSQL at 127\.0\.0\.1:\d+\/\w+: the connection was lost during COMMIT \(.+\)$/,
      );
    } finally {
      await proxy.close();
    }
  });
});
