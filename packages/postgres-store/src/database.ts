/**
 * The connections of the store: one pool per process (an error listener on every connection, so a
 * server that goes away never takes the process down), the schema migrated at the first use, and
 * every failure worded for the person reading it (never with the password).
 *
 * Each connection carries two limits of its own, sent at connect: `lock_timeout` (a call waiting
 * for a list that another server holds gives up) and `idle_in_transaction_session_timeout` (a
 * server frozen in the middle of a call, holding a list's lock, is cut off by PostgreSQL, which
 * rolls its transaction back and frees the list). The idle limit is below the lock limit, so a
 * frozen holder is cut off before the servers waiting behind it give up.
 */
import pg from 'pg';
import { DatabaseError } from './errors.js';
import { migrate } from './schema.js';

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
  '25P03',
]);

/** SQLSTATE of "too many clients already" (max_connections, or a role's or database's limit). */
const TOO_MANY_CONNECTIONS = '53300';
/** SQLSTATE of a lock not granted within `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';
/** SQLSTATE of a session ended by `idle_in_transaction_session_timeout`. */
const IDLE_IN_TRANSACTION_TIMEOUT = '25P03';

/**
 * The pause between two attempts to connect while the server refuses (no slot free, not up yet):
 * short, so a call gets a slot within a fraction of a second of one freeing.
 */
const CONNECT_RETRY_PAUSE_MS = 200;

/**
 * How long an unused connection stays in the pool. Short: the database's slots are shared by
 * every server on it, and a slot one server keeps idle is one another server cannot have.
 */
const IDLE_CONNECTION_MS = 1000;

/** True when `error` is a lost or refused connection (so the call can say the database is unreachable). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return (
    (code !== undefined && CONNECTION_CODES.has(code)) ||
    /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(message)
  );
}

/** True for node-postgres refusing a statement on a connection already failed or closed: it was never sent. */
function neverSent(error: unknown): boolean {
  return error instanceof Error && /is not queryable/.test(error.message);
}

/** True when a connection attempt that failed with `error` may succeed a moment later. */
function worthRetrying(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === TOO_MANY_CONNECTIONS || isConnectionError(error);
}

/** Where the database is, without its password (for messages). */
export function describeTarget(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** `ms` as seconds for a message: `15 s`, `0.5 s`. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** The settings of a {@link Database}. */
export interface DatabaseSettings {
  maxConnections: number;
  connectTimeoutMs: number;
  /** `lock_timeout` of every connection, in ms (0: PostgreSQL's own setting). */
  lockTimeoutMs: number;
  /** `idle_in_transaction_session_timeout` of every connection, in ms (0: PostgreSQL's own setting). */
  idleInTransactionTimeoutMs: number;
}

/** What a transaction's function is given: its connection, and how to say it wrote something. */
export type TransactionWork<T> = (client: pg.PoolClient, wrote: () => void) => Promise<T>;

/** The pool of one database and how a call runs on it. */
export class Database {
  private readonly pool: pg.Pool;
  private readonly target: string;
  private schemaReady: Promise<void> | undefined;
  // Connections given a listener already (a pooled connection is handed out many times), with
  // the error PostgreSQL sent one while it had no query running (it then ended the session).
  private readonly listened = new WeakMap<pg.PoolClient, { error?: unknown }>();

  constructor(
    connectionString: string,
    private readonly settings: DatabaseSettings,
  ) {
    this.target = describeTarget(connectionString);
    this.pool = new pg.Pool({
      connectionString,
      max: settings.maxConnections,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      idleTimeoutMillis: IDLE_CONNECTION_MS,
      // A connection whose peer vanished (a network that drops packets) is found out by the OS.
      keepAlive: true,
      // The connection string's values win over these (node-postgres reads it last).
      ...(settings.lockTimeoutMs > 0 ? { lock_timeout: settings.lockTimeoutMs } : {}),
      ...(settings.idleInTransactionTimeoutMs > 0
        ? { idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs }
        : {}),
      // What pg_stat_activity shows, unless the connection string names the application.
      fallback_application_name: 'raider-postgres-store',
    });
    // An idle connection the server dropped (a restart): the pool discards it; no crash.
    this.pool.on('error', () => {});
  }

  /** The store's error for `error`: what failed, and that nothing was changed (or read). */
  failure(error: unknown, what: string): DatabaseError {
    if (DatabaseError.isInstance(error)) return error as DatabaseError;
    const reason = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: string } | undefined)?.code;
    let message: string;
    const { lockTimeoutMs, idleInTransactionTimeoutMs } = this.settings;
    if (code === LOCK_NOT_AVAILABLE) {
      const limit = lockTimeoutMs > 0 ? `${seconds(lockTimeoutMs)} (lockTimeoutMs)` : "PostgreSQL's lock_timeout";
      message = `${this.target}: another server holds the list (its lock was not free within ${limit}); ${what}`;
    } else if (code === IDLE_IN_TRANSACTION_TIMEOUT) {
      const limit =
        idleInTransactionTimeoutMs > 0
          ? `${seconds(idleInTransactionTimeoutMs)} (idleInTransactionTimeoutMs`
          : "PostgreSQL's idle_in_transaction_session_timeout (";
      message = `${this.target} ended the call's transaction after it sat idle for more than ${limit}; is a beforeTask hook that slow?); ${what}`;
    } else if (code === TOO_MANY_CONNECTIONS) {
      message = `${this.target} has no connection slot free (${reason}; tried for ${seconds(this.settings.connectTimeoutMs)}); ${what}`;
    } else if (isConnectionError(error)) {
      message = `${this.target} is unreachable (${reason}); ${what}`;
    } else {
      message = `${this.target} refused the statement (${reason.slice(0, 200)}); ${what}`;
    }
    return new DatabaseError(message, { cause: error });
  }

  /**
   * A connection with the schema in place. While the server refuses connections (no slot free:
   * SQLSTATE 53300; not up yet; refused) it tries again every 200 ms until the connect timeout,
   * so a call gets a slot as soon as one frees; a dead connection the pool hands out is replaced.
   */
  async connect(): Promise<pg.PoolClient> {
    const deadline = Date.now() + this.settings.connectTimeoutMs;
    for (;;) {
      let client: pg.PoolClient | undefined;
      try {
        client = await this.pool.connect();
        if (!this.listened.has(client)) {
          // A checked-out connection the server drops emits 'error' with nobody listening but us:
          // without a listener that would end the process. The query in flight fails on its own;
          // an error that came while none ran is kept, to say why the next statement failed.
          const seen: { error?: unknown } = {};
          this.listened.set(client, seen);
          client.on('error', (error) => {
            seen.error ??= error;
          });
        }
        await this.schema(client);
        return client;
      } catch (error) {
        client?.release(true);
        const left = deadline - Date.now();
        if (!worthRetrying(error) || left <= 0) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(CONNECT_RETRY_PAUSE_MS, left)));
      }
    }
  }

  /** The schema, migrated once per process (again after a failed attempt). */
  private schema(client: pg.PoolClient): Promise<void> {
    if (!this.schemaReady) {
      const run = migrate(client).then(() => undefined);
      this.schemaReady = run;
      run.catch(() => {
        if (this.schemaReady === run) this.schemaReady = undefined;
      });
    }
    return this.schemaReady;
  }

  /**
   * Why a statement on `client` failed: for one refused because the connection had failed before
   * it was sent, the error that failed it (PostgreSQL ending an idle session says why).
   */
  private cause(client: pg.PoolClient, error: unknown): unknown {
    return neverSent(error) ? (this.listened.get(client)?.error ?? error) : error;
  }

  /** Runs `fn` on one connection outside a transaction (one query); a connection that failed is dropped. */
  single<T>(what: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.outsideTransaction(what, fn, (_error, cause) => this.failure(cause, what));
  }

  /**
   * Runs `fn` on one connection outside a transaction: one statement that writes, committed as it
   * ends. If the connection is lost once the statement was sent, it may have committed, and the
   * error says so (`mayHaveBeenSaved`); a failure before it was sent, or an error PostgreSQL
   * answered, is `what`.
   */
  autocommit<T>(what: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.outsideTransaction(what, fn, (error, cause) =>
      isConnectionError(cause) && !neverSent(error)
        ? this.lostInFlight('before the write was answered', error)
        : this.failure(cause, what),
    );
  }

  /** A connection for a call. @throws the store's error ending in `what` when none can be had. */
  private async connectFor(what: string): Promise<pg.PoolClient> {
    try {
      return await this.connect();
    } catch (error) {
      throw this.failure(error, what);
    }
  }

  /**
   * Runs `fn` on one connection outside a transaction, released after it (dropped when the
   * connection failed). The error `fn` threw is answered by `failed(error, cause)`: `cause` is the
   * error that failed the connection when the statement was never sent, else `error` itself.
   */
  private async outsideTransaction<T>(
    what: string,
    fn: (client: pg.PoolClient) => Promise<T>,
    failed: (error: unknown, cause: unknown) => DatabaseError,
  ): Promise<T> {
    const client = await this.connectFor(what);
    try {
      const result = await fn(client);
      client.release();
      return result;
    } catch (error) {
      const cause = this.cause(client, error);
      client.release(isConnectionError(cause) ? (cause as Error) : undefined);
      throw failed(error, cause);
    }
  }

  /** The error of a write whose connection was lost `when` (after it was sent): it may have been saved. */
  private lostInFlight(when: string, error: unknown): DatabaseError {
    const reason = error instanceof Error ? error.message : String(error);
    return new DatabaseError(`${this.target}: the connection was lost ${when} (${reason})`, {
      mayHaveBeenSaved: true,
      cause: error,
    });
  }

  /**
   * Runs `fn` in one transaction (`mode`: its BEGIN); rolls back on any error. `fn` calls `wrote()`
   * once it has written something: if the connection is then lost while the COMMIT is in flight,
   * the change may have been committed, and the error says so (`mayHaveBeenSaved`). A failure
   * before the COMMIT was sent rolls back: `what` (nothing was changed) holds.
   */
  async transaction<T>(mode: string, what: string, fn: TransactionWork<T>): Promise<T> {
    const client = await this.connectFor(what);
    let broken: unknown;
    let wrote = false;
    let committing = false;
    try {
      await client.query(mode);
      const result = await fn(client, () => {
        wrote = true;
      });
      committing = true;
      await client.query('COMMIT');
      return result;
    } catch (error) {
      const cause = this.cause(client, error);
      if (isConnectionError(cause)) broken = cause;
      else await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError));
      // Lost in flight: the COMMIT was sent on a sound connection and the connection failed before
      // its answer came, so it may have committed. A COMMIT answered with an error (the server
      // rolled back), or never sent (node-postgres refuses a failed connection), committed nothing.
      if (committing && wrote && isConnectionError(error) && !neverSent(error)) {
        throw this.lostInFlight('during COMMIT', error);
      }
      throw this.failure(cause, what);
    } finally {
      client.release(broken instanceof Error ? broken : broken !== undefined);
    }
  }

  /** Ends the pool. */
  end(): Promise<void> {
    return this.pool.end();
  }
}
