// Replicas share one table of agents (issue 38): two server processes on one PostgreSQL with
// `--agents database` read the table raider_agents, filled with the README's own INSERT. An agent
// added while they run is taken by both within the poll; one not in it is refused by both; the
// sender of a message across the replicas is the agent of the token.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase, runSql } from '../../../packages/postgres-store/test/postgres-faults.js';
import { AGENTS_TABLE_SQL } from '../src/credentials/agents-database.js';
import { textOf } from './helpers.js';
import { type ServerProcess, spawnServer, stopServer } from './team-processes.js';

const ALICE = 'alice-replica-token-0123456789';
const BOB = 'bob-replica-token-0123456789ab';

/** The README's INSERT for an agent (the token's SHA-256 made by PostgreSQL itself). */
const insertAgent = (url: string, name: string, token: string) =>
  runSql(
    url,
    "INSERT INTO raider_agents (name, token_sha256, lists, board) VALUES ($1, encode(sha256($2::bytea), 'hex'), NULL, false)",
    [name, token],
  );

const closing: { close(): Promise<unknown> }[] = [];

/** A 2025-era client of `url` with `token`, on list `list`. */
async function connect(url: string, token: string, list: string) {
  const client = new Client({ name: 'replica-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}`, 'x-raider-list': list } },
    }),
  );
  closing.push(client);
  return async (name: string, args: Record<string, unknown> = {}) =>
    textOf(await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }));
}

/** Status of an initialize with `token` (401 while the table does not hold it). */
async function initializeStatus(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

describe('two replicas on one raider_agents table', () => {
  let url: string;
  let drop: () => Promise<void>;
  let replicas: ServerProcess[];
  beforeAll(async () => {
    ({ url, drop } = await freshDatabase(inject('databaseUrl')));
    // The table as the server makes it, filled before the start (an empty one refuses to start).
    await runSql(url, AGENTS_TABLE_SQL);
    await insertAgent(url, 'alice', ALICE);
    const args = ['--database-url', url, '--agents', 'database', '--team'];
    replicas = await Promise.all([spawnServer(args), spawnServer(args)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(closing.splice(0).map((client) => client.close().catch(() => {})));
    await Promise.all((replicas ?? []).map((replica) => stopServer(replica)));
    await drop?.();
  });

  it('an agent added while they run is taken by both; the sender across them is the token', async () => {
    const [a, b] = replicas as [ServerProcess, ServerProcess];
    expect(await initializeStatus(a.url, BOB)).toBe(401);
    expect(await initializeStatus(b.url, BOB)).toBe(401);
    await insertAgent(url, 'bob', BOB);
    // Read again every 2 s: within a few polls each replica takes bob.
    for (const replica of [a, b]) {
      const until = Date.now() + 20_000;
      while ((await initializeStatus(replica.url, BOB)) !== 200 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await initializeStatus(replica.url, BOB)).toBe(200);
    }
    const list = `replicas-${randomUUID().slice(0, 8)}`;
    const bob = await connect(b.url, BOB, list);
    const alice = await connect(a.url, ALICE, list);
    expect(await bob('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
    expect(await alice('send_message', { to: 'bob', message: 'across replicas' })).toBe('Message sent to bob');
    expect(await bob('wait_for_messages', { timeoutSeconds: 20 })).toBe('Message from alice: across replicas');
    for (const replica of [a, b]) {
      expect(replica.log()).toMatch(/agents table: 1 entry;/);
      expect(replica.log()).not.toContain(ALICE);
      expect(replica.log()).not.toContain(BOB);
    }
  }, 90_000);
});
