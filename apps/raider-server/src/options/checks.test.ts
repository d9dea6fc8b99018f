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
