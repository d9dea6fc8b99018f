// The table from a file or inline JSON, and the source that follows the file while a server runs.
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentSource } from './agent-source.js';
import { CredentialsError } from './agent-table.js';
import { fileAgentSource, isInlineTable, readAgentTable } from './agent-table-file.js';

const SECRET = 'alice-secret-token-0001';
const LATER = 'bob-secret-token-000002';
const table = (...names: string[]) =>
  JSON.stringify({ agents: names.map((name, i) => ({ name, token: `${SECRET}-${i}` })) });

let dir: string;
const open: AgentSource[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raider-agents-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((source) => source.close()));
  await rm(dir, { recursive: true, force: true });
});

/** The message `promise` rejects with, checked to be a CredentialsError. */
async function rejection(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CredentialsError);
  return (error as Error).message;
}

/** A source on `path` polled every 20 ms, with what it reported. */
async function watched(path: string) {
  const problems: string[] = [];
  const reloads: string[][] = [];
  const source = await fileAgentSource(path, {
    pollMs: 20,
    onProblem: (message) => problems.push(message),
    onReload: (next) => reloads.push(next.entries.map((entry) => entry.name)),
  });
  open.push(source);
  const names = () => source.current().entries.map((entry) => entry.name);
  return { source, problems, reloads, names };
}

describe('readAgentTable', () => {
  it('reads inline JSON (a value starting with { or [), a JSON file and a .toml file', async () => {
    expect(isInlineTable('  [{"name":"a"}]')).toBe(true);
    expect(isInlineTable('/etc/raider/agents.json')).toBe(false);
    const inline = await readAgentTable(`  ${table('alice')}\n`, 'RAIDER_AGENTS');
    expect(inline.identify(`${SECRET}-0`)?.name).toBe('alice');
    await writeFile(join(dir, 'agents.json'), table('alice', 'bob'));
    expect((await readAgentTable(join(dir, 'agents.json'))).entries).toHaveLength(2);
    await writeFile(join(dir, 'agents.TOML'), `[[agents]]\nname = "carol"\nsha256 = "${'ab'.repeat(32)}"\n`);
    expect((await readAgentTable(join(dir, 'agents.TOML'))).byName('carol')?.board).toBe(false);
  });

  it('names the source in errors: the path, or the given source with it', async () => {
    const path = join(dir, 'agents.json');
    await writeFile(path, '[]');
    expect(await rejection(readAgentTable(path))).toBe(
      `${path}: expected at least one agent, received a table without any`,
    );
    expect(await rejection(readAgentTable(path, '--agents'))).toBe(
      `--agents (${path}): expected at least one agent, received a table without any`,
    );
    expect(await rejection(readAgentTable('[]', 'RAIDER_AGENTS'))).toBe(
      'RAIDER_AGENTS: expected at least one agent, received a table without any',
    );
    expect(await rejection(readAgentTable(`[{"name": "a", "token": "${SECRET}" x]`))).not.toContain(SECRET);
  });

  it('refuses a path with no file, a folder, and an empty value, saying the path', async () => {
    const missing = join(dir, 'nope.toml');
    expect(await rejection(readAgentTable(missing))).toBe(
      `${missing}: expected an agent table (a JSON or TOML file, or inline JSON starting with { or [), received the path "${missing}", where there is no file`,
    );
    expect(await rejection(readAgentTable(dir, 'RAIDER_AGENTS'))).toBe(
      `RAIDER_AGENTS (${dir}): expected an agent table file, received the path "${dir}" of a folder`,
    );
    expect(await rejection(readAgentTable('  ', 'RAIDER_AGENTS'))).toBe(
      'RAIDER_AGENTS: expected the path of a JSON or TOML file, or inline JSON starting with { or [, received an empty value',
    );
  });
});

describe('fileAgentSource', () => {
  it('reloads a file written in place', async () => {
    const path = join(dir, 'agents.json');
    await writeFile(path, table('alice'));
    const { names, reloads, problems } = await watched(path);
    expect(names()).toEqual(['alice']);
    await writeFile(path, table('alice', 'bob'));
    await vi.waitFor(() => expect(names()).toEqual(['alice', 'bob']), { timeout: 5000, interval: 10 });
    expect(reloads.at(-1)).toEqual(['alice', 'bob']);
    expect(problems).toEqual([]);
  });

  it('reloads a file replaced by a rename, as editors and mv do', async () => {
    const path = join(dir, 'agents.toml');
    await writeFile(path, `[[agents]]\nname = "alice"\ntoken = "${SECRET}"\n`);
    const { names, source } = await watched(path);
    await writeFile(join(dir, 'agents.toml.new'), `[[agents]]\nname = "bob"\ntoken = "${LATER}"\n`);
    await rename(join(dir, 'agents.toml.new'), path);
    await vi.waitFor(() => expect(names()).toEqual(['bob']), { timeout: 5000, interval: 10 });
    expect(source.current().identify(SECRET)).toBeUndefined();
    expect(source.current().identify(LATER)?.name).toBe('bob');
  });

  it('keeps the table in force when a change does not parse or the file goes, and reports it', async () => {
    const path = join(dir, 'agents.json');
    await writeFile(path, table('alice'));
    const { names, problems } = await watched(path);
    await writeFile(path, `{"agents": [{"name": "bob", "token": "${LATER}"`);
    await vi.waitFor(() => expect(problems).toHaveLength(1), { timeout: 5000, interval: 10 });
    expect(problems[0]).toBe(
      `${path}: expected an agent table in JSON, received text that does not parse: Expected ',' or '}' after property value at line 1 column 63 (the agent table read before stays in force)`,
    );
    expect(names()).toEqual(['alice']);
    await rm(path);
    await vi.waitFor(() => expect(problems).toHaveLength(2), { timeout: 5000, interval: 10 });
    expect(problems[1]).toContain('where there is no file (the agent table read before stays in force)');
    expect(names()).toEqual(['alice']);
    await writeFile(path, table('carol'));
    await vi.waitFor(() => expect(names()).toEqual(['carol']), { timeout: 5000, interval: 10 });
    expect(problems.join(' ')).not.toContain(LATER);
  });

  it('rejects when the first read fails, and reads inline JSON once', async () => {
    expect(await rejection(fileAgentSource(join(dir, 'none.json'), { onProblem: () => {} }))).toContain(
      'where there is no file',
    );
    const inline = await fileAgentSource(table('alice'), { onProblem: () => {} });
    expect(inline.current().byName('alice')).toBeDefined();
    await inline.close();
    expect(inline.current().entries).toHaveLength(1);
  });

  it('after close, a change is no longer read', async () => {
    const path = join(dir, 'agents.json');
    await writeFile(path, table('alice'));
    const { source, names, reloads } = await watched(path);
    await source.close();
    await writeFile(path, table('alice', 'bob', 'carol'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(names()).toEqual(['alice']);
    expect(reloads).toEqual([]);
  });
});
