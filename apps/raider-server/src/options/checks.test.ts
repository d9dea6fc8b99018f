// The checks between settings, called as readOptions calls them once every row is read.
import { describe, expect, it } from 'vitest';
import { checkDatabase, checkNoDatabaseFlags, checkTogether, useClaudeTasks } from './checks.js';
import { readOptions } from './read-options.js';

const flagName = (flag: string) => `--${flag}`;

describe('the checks between settings', () => {
  it('a flag that needs --http or --database-url is refused without it, named as given', () => {
    const options = readOptions([], {});
    expect(() => checkTogether(options, { 'max-body': '2048' }, flagName)).toThrow(
      '--max-body: expected --http as well (it sets the HTTP server, and without --http the server speaks stdio), received stdio',
    );
    expect(() => checkNoDatabaseFlags({ 'database-lock-timeout': '1' })).toThrow(
      '--database-lock-timeout: expected --database-url as well',
    );
    expect(() => checkNoDatabaseFlags({ port: '1' })).not.toThrow();
  });

  it('lists live in one place, and the database URL is never echoed', () => {
    const options = { ...readOptions([], {}), databaseUrl: 'mysql://u:secret@h/db' };
    expect(() => checkDatabase(options, flagName)).toThrow(/received one that is not \(21 characters\)$/);
    const both = { ...readOptions([], {}), databaseUrl: 'postgres://h/db', dataDir: '/d' };
    expect(() => checkDatabase(both, flagName)).toThrow(
      '--database-url: expected no --data-dir beside it (lists live in one place), received both',
    );
  });

  it('--agents stands alone: no shared --token or --agent beside it, database only with one', () => {
    const read =
      (args: string[], env: NodeJS.ProcessEnv = {}) =>
      () =>
        readOptions(['--http', ...args], env);
    expect(read(['--agents', 'a.json', '--token', 'x'.repeat(20)])).toThrow(
      '--agents: expected no --token beside it (each client sends its own token from the table), received both',
    );
    expect(read(['--agents', 'a.json', '--agent', 'bob'])).toThrow(
      '--agents: expected no --agent beside it (each token names its own agent), received both',
    );
    expect(read(['--agents', 'database'])).toThrow(
      '--agents database: expected --database-url as well (the table raider_agents lives there), received none',
    );
    expect(read([], { RAIDER_AGENTS: ' ' })).toThrow(
      'RAIDER_AGENTS: expected a file of agents and their tokens, received an empty value',
    );
    expect(() => readOptions(['--agents', 'a.json'], {})).toThrow('--agents: expected --http as well');
    // Off loopback a table guards the server as a token does.
    expect(readOptions(['--http', '--host', '0.0.0.0', '--agents', 'a.json'], {}).agents).toBe('a.json');
    expect(read(['--host', '0.0.0.0'])).toThrow(
      'expected a bearer token (--token or RAIDER_TOKEN) or a table of agents (--agents) to protect it, received neither',
    );
  });

  it("--claude-tasks takes Claude Code's folder and session list, unless --list names one", () => {
    const options = readOptions([], {});
    useClaudeTasks(options, { HOME: '/home/a', CLAUDE_CODE_SESSION_ID: 'abc' }, flagName);
    expect(options.list).toBe('abc');
    expect(options.dataDir).toContain('/home/a');
    expect(() => useClaudeTasks(readOptions([], {}), { HOME: '/h' }, flagName)).toThrow(
      /^--claude-tasks: expected CLAUDE_CODE_TASK_LIST_ID or CLAUDE_CODE_SESSION_ID/,
    );
  });
});
