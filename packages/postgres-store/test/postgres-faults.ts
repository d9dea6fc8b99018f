// The faults of the store's tests, made for real: a database of a test's own, a role with few
// connection slots, a TCP proxy that loses the answer to a COMMIT, the PostgreSQL backend of a
// connection (to SIGSTOP it), a child process that takes a list's lock and freezes.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** Runs `sql` on a connection of its own to `url`, then closes it. */
export async function runSql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Another connection that takes list `id`'s row lock, as a server in the middle of a change does,
 * and keeps it until `release()` (the schema must be there: a store's first call makes it).
 */
export async function holdListLock(url: string, id: string): Promise<{ release(): Promise<void> }> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('INSERT INTO raider_lists (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [id]);
  await holder.query('SELECT seq FROM raider_lists WHERE id = $1 FOR UPDATE', [id]);
  return {
    release: async () => {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    },
  };
}

/** `url` with another user, password or database. */
export function withTarget(url: string, target: { user?: string; password?: string; database?: string }): string {
  const parsed = new URL(url);
  if (target.user !== undefined) parsed.username = target.user;
  if (target.password !== undefined) parsed.password = target.password;
  if (target.database !== undefined) parsed.pathname = `/${target.database}`;
  return parsed.toString();
}

/** A database of the test's own (so its backends can be told apart), and how to drop it. */
export async function freshDatabase(url: string, owner?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `raider_test_${randomBytes(6).toString('hex')}`;
  await runSql(url, `CREATE DATABASE ${name}${owner ? ` OWNER ${owner}` : ''}`);
  return {
    url: withTarget(url, { database: name }),
    drop: async () => {
      await runSql(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A login role allowed `slots` connections at once (PostgreSQL refuses the next with SQLSTATE
 * 53300, as it does when `max_connections` is reached), owning a database of its own.
 */
export async function roleWithSlots(url: string, slots: number): Promise<{ url: string; drop(): Promise<void> }> {
  const role = `raider_slots_${randomBytes(6).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await runSql(url, `CREATE ROLE ${role} LOGIN PASSWORD '${password}' CONNECTION LIMIT ${slots}`);
  const database = await freshDatabase(url, role);
  return {
    url: withTarget(database.url, { user: role, password }),
    drop: async () => {
      await database.drop();
      await runSql(url, `DROP ROLE IF EXISTS ${role}`);
    },
  };
}

/** The pids of the client backends connected to `database` (read through `adminUrl`). */
export async function backendsOf(adminUrl: string, database: string): Promise<number[]> {
  const rows = await runSql<{ pid: number }>(
    adminUrl,
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
    [database],
  );
  return rows.map((row) => row.pid);
}

/**
 * A TCP proxy in front of PostgreSQL that, once armed, lets the next COMMIT (or the next query
 * that `loseNextAnswerTo`'s pattern matches: a simple query, or an extended one's Parse or Bind,
 * which names its prepared statement) through and drops the connection instead of passing its
 * answer back: the change is committed, the client never hears so (what a network failing at
 * that moment does). `dropNextQuery(pattern)` drops the connection instead of passing on the
 * next query it matches: nothing reaches the database, the client cannot tell.
 */
export async function commitLosingProxy(url: string): Promise<{
  url: string;
  loseNextCommitAnswer(): void;
  loseNextAnswerTo(pattern: RegExp): void;
  dropNextQuery(pattern: RegExp): void;
  close(): Promise<void>;
}> {
  const target = new URL(url);
  let armed: RegExp | undefined;
  let dropping: RegExp | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const database = connect(Number(target.port), target.hostname);
    sockets.add(client).add(database);
    let losing = false;
    let buffered = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      let drop = false;
      // Messages from the client: the startup message has no type byte, every later one has.
      for (;;) {
        if (!started) {
          if (buffered.length < 8) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          const code = buffered.readInt32BE(4);
          buffered = buffered.subarray(length);
          // SSLRequest and GSSENCRequest come before the startup message proper.
          if (code !== 80877103 && code !== 80877104) started = true;
          continue;
        }
        if (buffered.length < 5) break;
        const length = buffered.readInt32BE(1);
        if (buffered.length < 1 + length) break;
        const type = String.fromCharCode(buffered[0] as number);
        const body = buffered.subarray(5, 1 + length).toString('utf8');
        buffered = buffered.subarray(1 + length);
        const query = type === 'Q' || type === 'P' || type === 'B';
        if (armed && query && armed.test(body)) {
          armed = undefined;
          losing = true;
        }
        if (dropping && query && dropping.test(body)) {
          dropping = undefined;
          drop = true;
        }
      }
      if (drop) {
        client.destroy();
        database.destroy();
        return;
      }
      database.write(chunk);
    });
    database.on('data', (chunk: Buffer) => {
      if (!losing) return void client.write(chunk);
      // The answer to the COMMIT: it was committed; the client is cut off instead of told.
      client.destroy();
      database.destroy();
    });
    const end = () => {
      client.destroy();
      database.destroy();
      sockets.delete(client);
      sockets.delete(database);
    };
    client.on('close', end).on('error', end);
    database.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    loseNextCommitAnswer: () => {
      armed = /^COMMIT\0$/;
    },
    loseNextAnswerTo: (pattern: RegExp) => {
      armed = pattern;
    },
    dropNextQuery: (pattern: RegExp) => {
      dropping = pattern;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A child process (another server, as far as PostgreSQL can tell) that opens the store with
 * `options`, enters a change of list `listId` (holding the list's row lock) and stops there;
 * resolves once it holds the lock. The caller freezes it (SIGSTOP) and kills it.
 */
export async function lockHolder(url: string, listId: string, options: Record<string, unknown>): Promise<ChildProcess> {
  const script = fileURLToPath(new URL('./lock-holder.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, url, listId, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    said += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('holding\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before holding: ${said}`)));
  });
  return child;
}
