// One list for agents on many machines: server processes (stand-ins for machines) on one
// PostgreSQL list, with atomic claims, a killed server and a database that goes away.
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freshDatabase, holdListLock, runSql } from '../../../packages/postgres-store/test/postgres-faults.js';
import { startPostgres } from '../../../packages/postgres-store/test/postgres-server.js';
import { listFor } from '../src/lists/list-for.js';
import type { ListHandle } from '../src/lists/list-handle.js';
import { createLogger } from '../src/log.js';
import { readOptions } from '../src/options.js';
import { createRuntime } from '../src/runtime.js';
import { stdioClient, textOf } from './helpers.js';

const databaseUrl = inject('databaseUrl');
const embedded = inject('databaseEmbedded');
const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

async function server(list: string, url = databaseUrl, extra: string[] = []) {
  const { client, transport } = await stdioClient([
    '--database-url',
    url,
    '--list',
    list,
    '--log-level',
    'warn',
    ...extra,
  ]);
  open.push(client);
  // What the server says on stderr, shown when a test fails.
  const log = { text: '' };
  (transport as StdioClientTransport).stderr?.on('data', (chunk: Buffer) => {
    log.text += chunk.toString();
  });
  return { client, transport: transport as StdioClientTransport, log };
}

const created = (text: string | undefined) => /^Task #(\d+) created successfully: (.*)$/.exec(text ?? '');
const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }).then(textOf, (error: Error) => `failed: ${error.message}`);

/** The list as one server sees it now: id -> subject (and owner). */
async function listed(client: Client): Promise<Map<string, { subject: string; owner?: string }>> {
  const read = await client.readResource({ uri: 'raider://tasks' });
  const { tasks } = JSON.parse((read.contents[0] as { text: string }).text) as {
    tasks: { id: string; content: string; owner?: string }[];
  };
  return new Map(tasks.map((t) => [t.id, { subject: t.content, ...(t.owner ? { owner: t.owner } : {}) }]));
}

describe('a list in PostgreSQL, shared by three servers', () => {
  it('3 x 200 concurrent creates: every acknowledged change is there, ids unique', async () => {
    const list = `team-${randomUUID()}`;
    const servers = await Promise.all([server(list), server(list), server(list)]);
    const answers = await Promise.all(
      servers.flatMap(({ client }, s) =>
        Array.from({ length: 200 }, (_, i) => call(client, 'task_create', { subject: `s${s}-${i}`, description: '' })),
      ),
    );
    const acknowledged = answers.map(created).filter((m) => m !== null) as RegExpExecArray[];
    expect(acknowledged).toHaveLength(600);
    expect(new Set(acknowledged.map((m) => m[1])).size).toBe(600);
    for (const { client } of servers) {
      const seen = await listed(client);
      expect(seen.size).toBe(600);
      for (const [, id, subject] of acknowledged) expect(seen.get(id as string)?.subject).toBe(subject);
    }
  }, 120_000);

  it('3 x 20 agents racing to claim 50 tasks: each task claimed exactly once, no agent told it holds a task another holds', async () => {
    const list = `claims-${randomUUID()}`;
    const servers = await Promise.all([1, 2, 3].map(() => server(list, databaseUrl, ['--claims'])));
    for (let i = 1; i <= 50; i += 1)
      await call(servers[0]?.client as Client, 'task_create', { subject: `T${i}`, description: '' });
    const held = new Map<string, string>();
    const conflicts: string[] = [];
    const agent = async (client: Client, name: string) => {
      for (;;) {
        const text = await call(client, 'task_claim', { owner: name, leaseSeconds: 600 });
        const match = /^Claimed task #(\d+): /.exec(text ?? '');
        if (!match) {
          expect(text).toBe('No task is free to claim');
          return;
        }
        const id = match[1] as string;
        if (held.has(id) && held.get(id) !== name) conflicts.push(`#${id}: ${held.get(id)} and ${name}`);
        held.set(id, name);
      }
    };
    await Promise.all(
      servers.flatMap(({ client }, s) => Array.from({ length: 20 }, (_, a) => agent(client, `agent-${s}-${a}`))),
    );
    expect(conflicts).toEqual([]);
    expect(held.size).toBe(50);
    const seen = await listed(servers[1]?.client as Client);
    for (const [id, name] of held) expect(seen.get(id)?.owner).toBe(name);
  }, 120_000);

  it('kill -9 of one server mid-stream: nothing it acknowledged is lost; the others go on', async () => {
    const list = `crash-${randomUUID()}`;
    const [victim, a, b] = await Promise.all([server(list), server(list), server(list)]);
    const acknowledged = new Map<string, string>();
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i += 1) {
        const match = created(
          await call(victim?.client as Client, 'task_create', { subject: `v${i}`, description: '' }),
        );
        if (match) acknowledged.set(match[1] as string, match[2] as string);
      }
    })();
    await expect.poll(() => acknowledged.size, { timeout: 30_000, interval: 5 }).toBeGreaterThan(5);
    process.kill(victim?.transport.pid as number, 'SIGKILL');
    stop = true;
    await writer;
    open.splice(open.indexOf(victim?.client as Client), 1);
    expect(
      created(await call(a?.client as Client, 'task_create', { subject: 'after', description: '' })),
    ).not.toBeNull();
    const seen = await listed(b?.client as Client);
    for (const [id, subject] of acknowledged) expect(seen.get(id)?.subject).toBe(subject);
    expect([...seen.values()].map((t) => t.subject)).toContain('after');
  }, 60_000);

  it('the database stops and comes back: calls during the outage fail clearly, then work again without a restart', async () => {
    const pg = await startPostgres();
    try {
      const list = 'outage';
      // Server a logs at info: the store's word on its LISTEN connection (lost, back) is there.
      const [a, b] = await Promise.all([server(list, pg.url, ['--log-level', 'info']), server(list, pg.url)]);
      expect(
        created(await call(a?.client as Client, 'task_create', { subject: 'before', description: '' })),
      ).not.toBeNull();
      await pg.stop();
      const during = await call(a?.client as Client, 'task_create', { subject: 'during', description: '' });
      expect(during, `server a said: ${a?.log.text}`).toMatch(
        /^Error: the task list could not be read or saved: PostgreSQL at 127\.0\.0\.1:\d+\/raider is unreachable \(.+\); nothing was changed$/,
      );
      expect(during).not.toContain('raider:raider');
      await pg.start();
      await expect
        .poll(
          async () =>
            created(await call(b?.client as Client, 'task_create', { subject: 'after', description: '' })) !== null,
          // A restarted PostgreSQL can take long to answer on a busy 2-core machine (CI).
          {
            timeout: 60_000,
            interval: 200,
          },
        )
        .toBe(true);
      // Both servers converge on the same list.
      await expect
        .poll(async () => [...(await listed(a?.client as Client)).values()].map((t) => t.subject).includes('after'), {
          timeout: 30_000,
        })
        .toBe(true);
      const seenA = [...(await listed(a?.client as Client)).values()].map((t) => t.subject);
      const seenB = [...(await listed(b?.client as Client)).values()].map((t) => t.subject);
      expect(seenA).toEqual(seenB);
      expect(seenA).toContain('before');
      expect(seenA).not.toContain('during');
      expect(a?.log.text).toMatch(
        /raider-server warn: PostgreSQL at 127\.0\.0\.1:\d+\/raider: the LISTEN connection was lost \(.+\); changes made by other servers are not heard until it is back\n/,
      );
      // Back within about a second of the database (the pause between attempts stops at 1 s).
      await expect
        .poll(() => a?.log.text, { timeout: 60_000 })
        .toMatch(
          /raider-server info: PostgreSQL at 127\.0\.0\.1:\d+\/raider: the LISTEN connection is back after \d+(\.\d)? s; every list is caught up\n/,
        );
      expect(a?.log.text).not.toContain('raider:raider');
    } finally {
      await pg.destroy();
    }
  }, 240_000);

  it.skipIf(!embedded)(
    "the database settings reach the store (pool size, lock and idle timeouts), and its word on the LISTEN connection reaches the server's log",
    async () => {
      const database = await freshDatabase(databaseUrl);
      const name = new URL(database.url).pathname.slice(1);
      const lines: string[] = [];
      const log = createLogger('info', (line) => lines.push(line));
      const settings = { databasePoolSize: 2, databaseLockTimeoutMs: 1000, databaseIdleTimeoutMs: 500 };
      let holder: { release(): Promise<void> } | undefined;
      // A server's runtime, as startStdio makes one: its pool and LISTEN connection.
      const runtime = createRuntime();
      try {
        // As the server opens a list: its options are the place.
        const handle = listFor(runtime, { databaseUrl: database.url, ...settings }, 'settings', { log }) as ListHandle;
        expect((await handle.tasks().load()).tasks).toEqual([]);
        // The idle timeout: a transaction whose work outlasts it is ended by PostgreSQL.
        await expect(
          handle.tasks().transact(0, async () => {
            await new Promise((resolve) => setTimeout(resolve, 1200));
            return { result: 0 };
          }),
        ).rejects.toThrow(/sat idle for more than 0\.5 s \(idleInTransactionTimeoutMs; .*\); nothing was changed$/);
        // The lock timeout: a list another connection holds.
        holder = await holdListLock(database.url, 'settings');
        await expect(handle.tasks().transact(0, async () => ({ result: 0 }))).rejects.toThrow(
          /another server holds the list \(its lock was not free within 1 s \(lockTimeoutMs\)\); nothing was changed$/,
        );
        await holder.release();
        holder = undefined;
        // The pool size: three calls at once share two connections (each counts the store's
        // connections while it holds one).
        const busy = (list: string) =>
          (listFor(runtime, { databaseUrl: database.url, ...settings }, list, { log }) as ListHandle)
            .tasks()
            .transact(0, async () => {
              const [row] = await runSql<{ count: string }>(
                databaseUrl,
                "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'raider-postgres-store'",
                [name],
              );
              await new Promise((resolve) => setTimeout(resolve, 200));
              return { result: Number(row?.count) };
            });
        const calls = await Promise.all(['a', 'b', 'c'].map(busy));
        expect(Math.max(...calls.map((call) => call.result))).toBe(2);
        // The LISTEN connection, ended by the server: the log says it was lost and is back.
        let woken = 0;
        handle.watch(() => {
          woken += 1;
        });
        // Up once it wakes its watchers.
        await expect.poll(() => woken, { timeout: 20_000 }).toBeGreaterThan(0);
        await expect
          .poll(
            async () =>
              (
                await runSql(
                  databaseUrl,
                  "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'raider-postgres-store listen'",
                  [name],
                )
              ).length,
            { timeout: 20_000 },
          )
          .toBe(1);
        await expect.poll(() => lines.join(''), { timeout: 20_000 }).toMatch(/is back after/);
        expect(lines).toEqual([
          expect.stringMatching(
            /^raider-server warn: PostgreSQL at 127\.0\.0\.1:\d+\/raider_test_\w+: the LISTEN connection was lost \(.+\); changes made by other servers are not heard until it is back\n$/,
          ),
          expect.stringMatching(
            /^raider-server info: PostgreSQL at 127\.0\.0\.1:\d+\/raider_test_\w+: the LISTEN connection is back after \d+(\.\d)? s; every list is caught up\n$/,
          ),
        ]);
        handle.release();
      } finally {
        await holder?.release();
        await runtime.close();
        await database.drop();
      }
    },
    60_000,
  );

  it('--database-url is checked: a postgres URL, and no other place for lists beside it', () => {
    expect(readOptions(['--database-url', 'postgres://u:p@h:5432/d', '--claims'], {})).toMatchObject({
      databaseUrl: 'postgres://u:p@h:5432/d',
      claims: true,
    });
    expect(readOptions([], { RAIDER_DATABASE_URL: 'postgresql://h/d', RAIDER_CLAIMS: '1' })).toMatchObject({
      databaseUrl: 'postgresql://h/d',
      claims: true,
    });
    expect(() => readOptions(['--database-url', 'mysql://secret@h/d'], {})).toThrow(
      '--database-url: expected a URL such as postgres://user:password@host:5432/database, received one that is not (18 characters)',
    );
    expect(() => readOptions(['--database-url', 'postgres://h/d', '--data-dir', '/x'], {})).toThrow(
      '--database-url: expected no --data-dir beside it (lists live in one place), received both',
    );
  });
});
