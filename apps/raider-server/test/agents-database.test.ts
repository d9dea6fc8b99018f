// The table of agents in PostgreSQL (raider_agents): made on a fresh database, refused while
// empty, read again every poll, a bad row or a lost database keeping the table in force.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { freshDatabase, runSql } from '../../../packages/postgres-store/test/postgres-faults.js';
import type { AgentSource } from '../src/credentials/agent-source.js';
import { CredentialsError } from '../src/credentials/agent-table.js';
import { AGENTS_TABLE_SQL, databaseAgentSource } from '../src/credentials/agents-database.js';

const databaseUrl = inject('databaseUrl');
const hex = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const ALICE = 'alice-secret-token-0001';
const BOB = 'bob-secret-token-000002';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A database of the test's own, dropped after it. */
async function database() {
  const made = await freshDatabase(databaseUrl);
  cleanups.push(made.drop);
  return made;
}

/** A source on `url` polled every 50 ms, with what it reported. */
async function source(url: string) {
  const problems: string[] = [];
  const reloads: string[][] = [];
  const opened: AgentSource = await databaseAgentSource(url, {
    pollMs: 50,
    onProblem: (message) => problems.push(message),
    onReload: (table) => reloads.push(table.entries.map((entry) => entry.name)),
  });
  cleanups.push(() => opened.close());
  const names = () => opened.current().entries.map((entry) => entry.name);
  return { opened, problems, reloads, names };
}

const insert = (url: string, name: string, sha256: string, lists: string[] | null = null, board = false) =>
  runSql(url, 'INSERT INTO raider_agents (name, token_sha256, lists, board) VALUES ($1, $2, $3, $4)', [
    name,
    sha256,
    lists,
    board,
  ]);

describe('databaseAgentSource', () => {
  it('makes the table on a fresh database and refuses it while empty, saying how to add an agent', async () => {
    const { url } = await database();
    const error = await databaseAgentSource(url, { onProblem: () => {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CredentialsError);
    expect((error as Error).message).toBe(
      `raider_agents has no agents: add one with INSERT INTO raider_agents (name, token_sha256) VALUES ('<name>', '<the SHA-256 of its token, as printf %s "$TOKEN" | sha256sum prints it>')`,
    );
    const columns = await runSql<{ column_name: string }>(
      url,
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'raider_agents' ORDER BY ordinal_position",
    );
    expect(columns.map((c) => c.column_name)).toEqual(['name', 'token_sha256', 'lists', 'board']);
    // Made again by a second server: a no-op.
    await runSql(url, AGENTS_TABLE_SQL);
  });

  it('reads the rows, and an INSERT shows up within a poll', async () => {
    const { url } = await database();
    await runSql(url, AGENTS_TABLE_SQL);
    await insert(url, 'alice', hex(ALICE), ['team'], true);
    const { opened, names, reloads, problems } = await source(url);
    expect(opened.current().entries).toEqual([{ name: 'alice', lists: ['team'], board: true }]);
    expect(opened.current().identify(ALICE)?.name).toBe('alice');
    await insert(url, 'bob', hex(BOB).toUpperCase());
    await vi.waitFor(() => expect(names()).toEqual(['alice', 'bob']), { timeout: 10_000, interval: 20 });
    expect(opened.current().identify(BOB)).toEqual({ name: 'bob', lists: undefined, board: false });
    expect(reloads).toEqual([['alice', 'bob']]);
    expect(problems).toEqual([]);
  });

  it('a bad row keeps the table in force and is reported once; fixing it reloads', async () => {
    const { url } = await database();
    await runSql(url, AGENTS_TABLE_SQL);
    await insert(url, 'alice', hex(ALICE));
    const { opened, names, problems } = await source(url);
    await insert(url, 'bob', 'not-hex');
    await vi.waitFor(() => expect(problems).toHaveLength(1), { timeout: 10_000, interval: 20 });
    expect(problems[0]).toBe(
      'raider_agents: row 2 ("bob"): expected token_sha256 to be 64 hex characters (the SHA-256 of the token, as printf %s "$TOKEN" | sha256sum prints it), received a string of 7 characters (the agent table read before stays in force)',
    );
    expect(names()).toEqual(['alice']);
    expect(opened.current().identify(ALICE)?.name).toBe('alice');
    // Several more polls of the same bad rows: not reported again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(problems).toHaveLength(1);
    await runSql(url, 'UPDATE raider_agents SET token_sha256 = $1 WHERE name = $2', [hex(BOB), 'bob']);
    await vi.waitFor(() => expect(names()).toEqual(['alice', 'bob']), { timeout: 10_000, interval: 20 });
  });

  it('a lost database keeps the table in force and is reported once per outage', async () => {
    const { url, drop } = await database();
    await runSql(url, AGENTS_TABLE_SQL);
    await insert(url, 'alice', hex(ALICE));
    const { opened, problems } = await source(url);
    await drop();
    await vi.waitFor(() => expect(problems).toHaveLength(1), { timeout: 20_000, interval: 20 });
    expect(problems[0]).toMatch(
      /^raider_agents: expected to read the agent table from PostgreSQL, received an error: .+ \(the agent table read before stays in force\)$/,
    );
    // Polls go on failing: still one report.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(problems).toHaveLength(1);
    expect(opened.current().identify(ALICE)?.name).toBe('alice');
  });
});
