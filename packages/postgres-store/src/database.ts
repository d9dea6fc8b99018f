/**
 * The connections of the store: one pool per process (an error listener on every connection, so a
 * server that goes away never takes the process down), the schema migrated at the first use, and
 * every failure worded for the person reading it (never with the password).
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

/** The pool of one database and how a call runs on it. */
export class Database {
  private readonly pool: pg.Pool;
  private readonly target: string;
  private schemaReady: Promise<void> | undefined;
  // Connections given a listener already (a pooled connection is handed out many times).
  private readonly listened = new WeakSet<pg.PoolClient>();

  constructor(connectionString: string, options: { maxConnections: number; connectTimeoutMs: number }) {
    this.target = describeTarget(connectionString);
    this.pool = new pg.Pool({
      connectionString,
      max: options.maxConnections,
      connectionTimeoutMillis: options.connectTimeoutMs,
      idleTimeoutMillis: 10_000,
    });
    // An idle connection the server dropped (a restart): the pool discards it; no crash.
    this.pool.on('error', () => {});
  }

  /** The store's error for `error`: what failed, and that nothing was changed (or read). */
  failure(error: unknown, what: string): DatabaseError {
    if (DatabaseError.isInstance(error)) return error as DatabaseError;
    const reason = error instanceof Error ? error.message : String(error);
    return new DatabaseError(
      isConnectionError(error)
        ? `${this.target} is unreachable (${reason}); ${what}`
        : `${this.target} refused the statement (${reason.slice(0, 200)}); ${what}`,
    );
  }

  /** A connection with the schema in place; one retry when the pool hands out a dead one. */
  async connect(): Promise<pg.PoolClient> {
    for (let attempt = 0; ; attempt += 1) {
      let client: pg.PoolClient | undefined;
      try {
        client = await this.pool.connect();
        if (!this.listened.has(client)) {
          // A checked-out connection the server drops emits 'error' with nobody listening but us:
          // without a listener that would end the process. The query in flight fails on its own.
          this.listened.add(client);
          client.on('error', () => {});
        }
        await this.schema(client);
        return client;
      } catch (error) {
        client?.release(true);
        if (attempt === 0 && isConnectionError(error)) continue;
        throw error;
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

  /** Runs `fn` on one connection outside a transaction (one query); a connection that failed is dropped. */
  async single<T>(what: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.connect();
    } catch (error) {
      throw this.failure(error, what);
    }
    try {
      const result = await fn(client);
      client.release();
      return result;
    } catch (error) {
      client.release(isConnectionError(error) ? (error as Error) : undefined);
      throw this.failure(error, what);
    }
  }

  /** Runs `fn` in one transaction (`mode`: its BEGIN); rolls back on any error. */
  async transaction<T>(mode: string, what: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.connect();
    } catch (error) {
      throw this.failure(error, what);
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
      throw this.failure(error, what);
    } finally {
      client.release(broken instanceof Error ? broken : broken !== undefined);
    }
  }

  /** Ends the pool. */
  end(): Promise<void> {
    return this.pool.end();
  }
}
