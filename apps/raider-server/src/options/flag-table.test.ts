// The flag table: one row per flag, each with its twin, and help lines that say the defaults they read.
import { describe, expect, it } from 'vitest';
import { envOf, FLAGS, LIMIT_FLAGS } from './flag-table.js';

describe('the flag table', () => {
  it('names each flag once, each variable once, and every variable but --help and --version is RAIDER_ and the flag', () => {
    expect(new Set(FLAGS.map((f) => f.flag)).size).toBe(FLAGS.length);
    const envs = FLAGS.map((f) => f.env).filter(Boolean);
    expect(new Set(envs).size).toBe(envs.length);
    expect(FLAGS.filter((f) => !f.env).map((f) => f.flag)).toEqual(['help', 'version']);
    const twins = FLAGS.filter((f) => f.env && f.env !== envOf(f.flag)).map((f) => [f.flag, f.env]);
    // The two whose variable is not the flag's name: RAIDER_BOARD_APP=0 is --no-board-app, RAIDER_LIST_ID is --list.
    expect(twins).toEqual([
      ['no-board-app', 'RAIDER_BOARD_APP'],
      ['list', 'RAIDER_LIST_ID'],
    ]);
  });

  it('fills each setting from one row, and the string flags show a value in --help', () => {
    expect(new Set(FLAGS.map((f) => f.key)).size).toBe(FLAGS.length);
    for (const f of FLAGS) expect(f.type === 'string' ? f.value : undefined, f.flag).toBe(f.value);
    expect(FLAGS.filter((f) => f.type === 'string' && !f.value)).toEqual([]);
    expect(FLAGS.filter((f) => f.key.startsWith('limits.')).map((f) => f.flag)).toEqual(
      Object.values(LIMIT_FLAGS).map((l) => l.flag),
    );
  });

  it("a string flag's help says the default its row takes (the help can't drift from it)", () => {
    const unsaid = FLAGS.filter(
      (f) =>
        f.type === 'string' &&
        typeof f.default === 'string' &&
        f.default !== '' &&
        !f.help.includes(`default ${f.default}`),
    ).map((f) => f.flag);
    // --names says it in words: "raider's (default) or Claude Code's".
    expect(unsaid).toEqual(['names']);
  });

  it('the flags that set the HTTP server or the database need --http or --database-url', () => {
    expect(FLAGS.filter((f) => f.needs === '--http').map((f) => f.flag)).toEqual([
      'host',
      'port',
      'token',
      'agents',
      'allowed-origins',
      'allowed-hosts',
      'max-sessions',
      'idle-timeout',
      'max-body',
    ]);
    expect(FLAGS.filter((f) => f.needs === '--database-url').map((f) => f.flag)).toEqual([
      'database-pool-size',
      'database-lock-timeout',
      'database-idle-timeout',
      'wait-for-database',
    ]);
  });
});
