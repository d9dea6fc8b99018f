/**
 * Task lists in PostgreSQL, for teams of agents on several machines sharing one list. A list is a
 * row (its high-water mark and the sequence of its last change), its tasks one row each (Claude
 * Code's record, as JSON), the other families' states a row each, and its change feed a table of
 * (sequence, ids put, ids removed), trimmed to the latest changes.
 *
 * Every tool call that changes a list is one transaction that first locks the list's row: the
 * caller catches up on what changed since the sequence it saw, its change is written (only the
 * tasks it touched), the sequence goes up by one and the change is NOTIFYed. Every process
 * LISTENs: a notification only wakes it (it is lost while a connection is down), the changes table
 * is the truth. When the database goes away a call fails with an error that says so, nothing is
 * half-written (the transaction rolls back), and the next call after it is back works again.
 */
import type {
  ListStore,
  TaskCatchUp,
  TaskDelta,
  TaskListSnapshot,
  TaskRecord,
  TaskStore,
  TaskTransaction,
  TaskWrite,
  TodoSnapshot,
  TodoWriteState,
  Transaction,
} from '@raider/todo-tools';
import pg from 'pg';
import { DatabaseError, ListIdError } from './errors.js';
import { Listener } from './listener.js';
import { migrate } from './schema.js';

/** Options of {@link openPostgresLists}. */
export interface PostgresListsOptions {
  /** `postgres://user:password@host:port/database` (node-postgres' connection string). */
  connectionString: string;
  /** How many changes of each list the feed keeps (default 1 000); a holder further behind reads the list whole. */
  keepChanges?: number;
  /** Most connections in the pool (default 10). */
  maxConnections?: number;
  /** How long to wait for a connection, in ms (default 5 000). */
  connectTimeoutMs?: number;
}

/** One list in the database: its task store (for one holder), the other families' stores, a watch. */
export interface PostgresList {
  readonly id: string;
  /** The task list, by record, with its change feed. */
  readonly tasks: TaskStore;
  /** The `todo` family's snapshot, whole. */
  readonly todo: ListStore<TodoSnapshot>;
  /** todo_write's last list, whole. */
  readonly todoWrite: ListStore<TodoWriteState>;
  /** Calls `onChange` when the list may have changed (a NOTIFY, or the LISTEN connection came back); returns a function that stops it. */
  watch(onChange: () => void): () => void;
}

/** The lists of one database, sharing one pool and one LISTEN connection. */
export interface PostgresLists {
  /** List `id` (nothing is read before its first call). @throws ListIdError for an empty id or one over 200 characters. */
  list(id: string): PostgresList;
  /** Ends the pool and the LISTEN connection. */
  close(): Promise<void>;
}

/** The NOTIFY channel; the payload is the list id. */
const CHANNEL = 'raider_changes';

/** Error codes that say the connection (not the statement) failed. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** True when `error` is a lost or refused connection (so the call can say the database is unreachable). */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return (
    (code !== undefined && CONNECTION_CODES.has(code)) ||
    /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(message)
  );
}

/** Where the database is, without its password (for messages). */
function describeTarget(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

interface ListRow {
  seq: number;
  highWaterMark: number;
}

/**
 * Opens the lists of the database at `options.connectionString` (nothing connects before the first
 * call; the schema is created or migrated then).
 */
export function openPostgresLists(options: PostgresListsOptions): PostgresLists {
  const keep = Math.max(1, options.keepChanges ?? 1000);
  const target = describeTarget(options.connectionString);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 10_000,
  });
  // An idle connection the server dropped (a restart): the pool discards it; no crash.
  pool.on('error', () => {});
  const listener = new Listener(options.connectionString, CHANNEL);
  let schemaReady: Promise<void> | undefined;

  /** The store's error for `error`: what failed, and that nothing was changed. */
  const failure = (error: unknown, what: string): DatabaseError => {
    if (DatabaseError.isInstance(error)) return error as DatabaseError;
    const reason = error instanceof Error ? error.message : String(error);
    return new DatabaseError(
      isConnectionError(error)
        ? `${target} is unreachable (${reason}); ${what}`
        : `${target} refused the statement (${reason.slice(0, 200)}); ${what}`,
    );
  };

  // A checked-out connection the server drops (a restart) emits 'error' with nobody listening but
  // us: without a listener that would end the process. The query in flight fails on its own.
  const listened = new WeakSet<pg.PoolClient>();
  const quiet = () => {};

  /** A connection with the schema in place; one retry when a pooled connection turns out dead. */
  const connect = async (): Promise<pg.PoolClient> => {
    for (let attempt = 0; ; attempt += 1) {
      let client: pg.PoolClient | undefined;
      try {
        client = await pool.connect();
        if (!listened.has(client)) {
          listened.add(client);
          client.on('error', quiet);
        }
        if (!schemaReady) {
          const run = migrate(client).then(() => undefined);
          schemaReady = run;
          run.catch(() => {
            if (schemaReady === run) schemaReady = undefined;
          });
        }
        await schemaReady;
        return client;
      } catch (error) {
        client?.release(true);
        if (attempt === 0 && isConnectionError(error)) continue;
        throw error;
      }
    }
  };

  /** Runs `fn` in one transaction (`mode`: its BEGIN); rolls back on any error. */
  const inTransaction = async <T>(
    mode: string,
    what: string,
    fn: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> => {
    let client: pg.PoolClient;
    try {
      client = await connect();
    } catch (error) {
      throw failure(error, what);
    }
    let broken: unknown;
    try {
      await client.query(mode);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isConnectionError(error)) broken = error;
      else await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
      throw failure(error, what);
    } finally {
      client.release(broken instanceof Error ? broken : broken !== undefined);
    }
  };

  const listRow = async (client: pg.ClientBase, id: string, forUpdate: boolean): Promise<ListRow | undefined> => {
    const { rows } = await client.query<{ seq: string; high_water_mark: string }>(
      `SELECT seq, high_water_mark FROM raider_lists WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    const row = rows[0];
    return row && { seq: Number(row.seq), highWaterMark: Number(row.high_water_mark) };
  };

  const snapshot = async (client: pg.ClientBase, id: string, row: ListRow | undefined): Promise<TaskListSnapshot> => {
    const { rows } = await client.query<{ record: TaskRecord }>(
      'SELECT record FROM raider_tasks WHERE list_id = $1 ORDER BY id',
      [id],
    );
    return { tasks: rows.map((r) => r.record), highWaterMark: row?.highWaterMark ?? 0, seq: row?.seq ?? 0 };
  };

  const delta = async (
    client: pg.ClientBase,
    id: string,
    row: ListRow | undefined,
    since: number,
  ): Promise<TaskDelta | undefined> => {
    const seq = row?.seq ?? 0;
    const highWaterMark = row?.highWaterMark ?? 0;
    if (since === seq) return { seq, put: [], removed: [], highWaterMark };
    if (since < 0 || since > seq) return undefined;
    const { rows: changes } = await client.query<{ seq: string; put: string[]; removed: string[] }>(
      'SELECT seq, put, removed FROM raider_changes WHERE list_id = $1 AND seq > $2 ORDER BY seq',
      [id, since],
    );
    // The feed must reach back to the change right after `since`.
    if (changes.length === 0 || Number((changes[0] as { seq: string }).seq) !== since + 1) return undefined;
    const ids = new Set<string>();
    for (const change of changes) for (const changed of [...change.put, ...change.removed]) ids.add(changed);
    const { rows } = await client.query<{ id: string; record: TaskRecord }>(
      'SELECT id, record FROM raider_tasks WHERE list_id = $1 AND id = ANY($2::bigint[])',
      [id, [...ids]],
    );
    const found = new Set(rows.map((r) => String(r.id)));
    return {
      seq,
      put: rows.map((r) => r.record),
      removed: [...ids].filter((changed) => !found.has(changed)),
      highWaterMark,
    };
  };

  /** Writes `write` as the list's next change (inside the transaction holding the list's row lock). */
  const commit = async (client: pg.ClientBase, id: string, row: ListRow, write: TaskWrite): Promise<number> => {
    const seq = row.seq + 1;
    const highWaterMark = Math.max(row.highWaterMark, write.highWaterMark, ...write.removed.map(Number));
    if (write.put.length) {
      await client.query(
        `INSERT INTO raider_tasks (list_id, id, record)
         SELECT $1, (r->>'id')::bigint, r FROM json_array_elements($2::json) AS r
         ON CONFLICT (list_id, id) DO UPDATE SET record = excluded.record`,
        [id, JSON.stringify(write.put)],
      );
    }
    if (write.removed.length) {
      await client.query('DELETE FROM raider_tasks WHERE list_id = $1 AND id = ANY($2::bigint[])', [id, write.removed]);
    }
    await client.query('UPDATE raider_lists SET seq = $2, high_water_mark = $3 WHERE id = $1', [
      id,
      seq,
      highWaterMark,
    ]);
    await client.query(
      'INSERT INTO raider_changes (list_id, seq, put, removed, high_water_mark) VALUES ($1, $2, $3, $4, $5)',
      [id, seq, write.put.map((record) => record.id), write.removed, highWaterMark],
    );
    // The feed keeps what a reconnecting server needs: the latest `keep` changes.
    if (seq % 100 === 0)
      await client.query('DELETE FROM raider_changes WHERE list_id = $1 AND seq <= $2', [id, seq - keep]);
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, id]);
    return seq;
  };

  /** Inside a transaction: the list's row, created when missing, locked for the rest of it. */
  const lockedListRow = async (client: pg.ClientBase, id: string): Promise<ListRow> => {
    await client.query('INSERT INTO raider_lists (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [id]);
    return (await listRow(client, id, true)) as ListRow;
  };

  const wholeState = <T>(id: string, family: 'todo' | 'todo_write'): ListStore<T> => ({
    async load() {
      return inTransaction('BEGIN READ ONLY', 'nothing was read', async (client) => {
        const { rows } = await client.query<{ state: T }>(
          'SELECT state FROM raider_states WHERE list_id = $1 AND family = $2',
          [id, family],
        );
        return rows[0]?.state;
      });
    },
    transact<R>(fn: (current: T | undefined) => Transaction<T, R> | Promise<Transaction<T, R>>): Promise<R> {
      return inTransaction('BEGIN', 'nothing was changed', async (client) => {
        await lockedListRow(client, id);
        const { rows } = await client.query<{ state: T }>(
          'SELECT state FROM raider_states WHERE list_id = $1 AND family = $2',
          [id, family],
        );
        const { next, result } = await fn(rows[0]?.state);
        if (next !== undefined) {
          await client.query(
            `INSERT INTO raider_states (list_id, family, state) VALUES ($1, $2, $3::json)
             ON CONFLICT (list_id, family) DO UPDATE SET state = excluded.state`,
            [id, family, JSON.stringify(next)],
          );
          await client.query('SELECT pg_notify($1, $2)', [CHANNEL, id]);
        }
        return result;
      });
    },
  });

  return {
    list(id: string): PostgresList {
      if (typeof id !== 'string' || id === '' || id.length > 200) {
        throw new ListIdError(
          `list id: expected 1 to 200 characters, received ${typeof id === 'string' ? `${id.length}` : typeof id}`,
        );
      }
      const tasks: TaskStore = {
        load() {
          return inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', 'nothing was read', async (client) =>
            snapshot(client, id, await listRow(client, id, false)),
          );
        },
        async changesSince(since) {
          // The common case, nothing changed, is one query.
          let row: ListRow | undefined;
          try {
            const client = await connect();
            try {
              row = await listRow(client, id, false);
              client.release();
            } catch (error) {
              // A connection that failed goes, not back to the pool.
              client.release(isConnectionError(error) ? (error as Error) : undefined);
              throw error;
            }
          } catch (error) {
            throw failure(error, 'nothing was read');
          }
          if ((row?.seq ?? 0) === since)
            return { seq: since, put: [], removed: [], highWaterMark: row?.highWaterMark ?? 0 };
          return inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', 'nothing was read', async (client) =>
            delta(client, id, await listRow(client, id, false), since),
          );
        },
        transact<R>(since: number, fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>) {
          return inTransaction('BEGIN', 'nothing was changed', async (client) => {
            const row = await lockedListRow(client, id);
            const catchUp = (await delta(client, id, row, since)) ?? (await snapshot(client, id, row));
            const { write, result } = await fn(catchUp);
            if (!write || (write.put.length === 0 && write.removed.length === 0)) return { result, seq: row.seq };
            return { result, seq: await commit(client, id, row, write) };
          });
        },
        watch(onChange) {
          return listener.add(id, onChange);
        },
      };
      return {
        id,
        tasks,
        todo: wholeState<TodoSnapshot>(id, 'todo'),
        todoWrite: wholeState<TodoWriteState>(id, 'todo_write'),
        watch: (onChange) => listener.add(id, onChange),
      };
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}
