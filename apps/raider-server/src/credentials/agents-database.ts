/**
 * The table of agents from PostgreSQL (issue 38): the table `raider_agents`, made when missing and
 * read again every `pollMs`, so several servers on one database share one table that can change
 * while they run. `pg` is imported only here, and only when this source is opened, so a server
 * without a database never loads it.
 */
import type { Pool } from 'pg';
import type { AgentSource, AgentSourceOptions } from './agent-source.js';
import { type AgentRow, AgentTable, CredentialsError } from './agent-table.js';

/** The SQL that makes the table: run once by every database source (a no-op when it is there). */
export const AGENTS_TABLE_SQL =
  'CREATE TABLE IF NOT EXISTS raider_agents (name text PRIMARY KEY, token_sha256 text NOT NULL, lists text[], board boolean NOT NULL DEFAULT false)';

/** How the table is named in messages. */
const SOURCE = 'raider_agents';

/** The rows as `AgentTable.fromRows` takes them, in a stable order (so an unchanged table reads the same). */
const SELECT_ROWS = 'SELECT name, token_sha256 AS sha256, lists, board FROM raider_agents ORDER BY name';

/** How often the table is read, in ms. */
const DATABASE_POLL_MS = 2000;

/** How long a connection attempt or a read may take before it counts as an outage, in ms. */
const DATABASE_TIMEOUT_MS = 10_000;

/**
 * SQLSTATEs of two servers making the table at once: CREATE TABLE IF NOT EXISTS is not atomic
 * across sessions, and the loser fails on the catalog's unique index (23505) or finds the table
 * made (42P07). Either way the table is there.
 */
const CREATED_BY_ANOTHER = new Set(['23505', '42P07']);

/** The first line of `error`'s message. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** Why the database could not be read, as one line. */
function unreadable(error: unknown): string {
  return `${SOURCE}: expected to read the agent table from PostgreSQL, received an error: ${firstLine(error)}`;
}

/** Makes the table unless it is there. */
async function createTable(pool: Pool): Promise<void> {
  try {
    await pool.query(AGENTS_TABLE_SQL);
  } catch (error) {
    if (!CREATED_BY_ANOTHER.has((error as { code?: string }).code ?? '')) throw error;
  }
}

/** The rows of the table now. */
async function readRows(pool: Pool): Promise<AgentRow[]> {
  return (await pool.query<AgentRow>(SELECT_ROWS)).rows;
}

/** Opens the pool and reads the first table. @throws CredentialsError */
async function opened(connectionString: string): Promise<{ pool: Pool; rows: AgentRow[]; table: AgentTable }> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString,
    max: 1,
    connectionTimeoutMillis: DATABASE_TIMEOUT_MS,
    query_timeout: DATABASE_TIMEOUT_MS,
    application_name: 'raider-server agents',
  });
  // An idle connection the server dropped: the pool discards it, the next read reports the outage.
  pool.on('error', () => {});
  try {
    await createTable(pool);
    const rows = await readRows(pool);
    return { pool, rows, table: AgentTable.fromRows(rows, SOURCE) };
  } catch (error) {
    await pool.end().catch(() => {});
    throw error instanceof CredentialsError ? error : new CredentialsError(unreadable(error));
  }
}

/**
 * A source for the table `raider_agents` of the database at `connectionString`: its own `pg`
 * pool (one connection), the table made when missing (AGENTS_TABLE_SQL), then read every `pollMs`
 * (default 2000). Rows that changed and make a good table replace the table in force
 * (`onReload`); rows that do not (a bad hex digest, a bad name) keep it and are reported to
 * `onProblem` once for each content that is bad. A database that cannot be reached keeps the
 * table too and is reported once per outage, not at every poll. The callbacks must not throw.
 * @throws CredentialsError (the promise rejects) when the first read fails: no database, or an
 * empty table ("raider_agents has no agents: add one with INSERT INTO raider_agents ...")
 */
export async function databaseAgentSource(connectionString: string, options: AgentSourceOptions): Promise<AgentSource> {
  const first = await opened(connectionString);
  const { pool } = first;
  let table = first.table;
  // What the last read rows were, good or bad: the same rows again are neither reloaded nor reported.
  let seen = JSON.stringify(first.rows);
  let outage = false;
  let closed = false;
  const poll = async (): Promise<void> => {
    let rows: AgentRow[];
    try {
      rows = await readRows(pool);
    } catch (error) {
      if (!outage && !closed) options.onProblem(`${unreadable(error)} (the agent table read before stays in force)`);
      outage = true;
      return;
    }
    outage = false;
    const now = JSON.stringify(rows);
    if (now === seen || closed) return;
    seen = now;
    try {
      table = AgentTable.fromRows(rows, SOURCE);
    } catch (error) {
      options.onProblem(`${firstLine(error)} (the agent table read before stays in force)`);
      return;
    }
    options.onReload?.(table);
  };
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> = Promise.resolve();
  const schedule = (): void => {
    if (closed) return;
    // One read at a time: the next is timed from the end of the last, however long it took.
    timer = setTimeout(() => {
      polling = poll()
        .catch(() => {})
        .then(schedule);
    }, options.pollMs ?? DATABASE_POLL_MS);
    timer.unref();
  };
  schedule();
  return {
    current: () => table,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await polling;
      await pool.end().catch(() => {});
    },
  };
}
