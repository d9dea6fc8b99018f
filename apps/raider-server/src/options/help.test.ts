// --help: one line per row of the table, in its order, with the variable after the text.
import { describe, expect, it } from 'vitest';
import { FLAGS } from './flag-table.js';
import { helpText } from './help.js';

describe('--help', () => {
  it('lists every flag of the table in order, padded to one column, with its variable', () => {
    const lines = helpText().split('\n');
    const rows = lines.filter((l) => l.startsWith('  --'));
    expect(rows).toHaveLength(FLAGS.length);
    expect(rows.map((l) => l.trim().split(' ')[0])).toEqual(FLAGS.map((f) => `--${f.flag}`));
    expect(rows).toContain(`${'  --port PORT'.padEnd(40)}HTTP port (default 3333; 0 picks a free one) [RAIDER_PORT]`);
    expect(rows.at(-1)).toBe(`${'  --version'.padEnd(40)}print the version and exit`);
    expect(lines[0]).toBe('Usage: raider-server [options]');
  });

  it('names the X-Raider-List and X-Raider-Agent headers after the options, and where a client naming no list works', () => {
    const text = helpText();
    expect(text).toContain(
      [
        '',
        'HTTP headers a client may send to /mcp (with --http; the flag named beats the header):',
        `${'  X-Raider-List: ID'.padEnd(40)}the list it works on (--list); percent-encoded UTF-8: team%20%CE%B2 names "team β"`,
        `${'  X-Raider-Agent: NAME'.padEnd(40)}who its agent is, its task owner name and inbox (--agent); percent-encoded too`,
        'Without --list or X-Raider-List, each 2025-era session gets a list of its own, and every 2026-era',
        "client shares the default list (it has no session): the project's, as over stdio.",
        '',
        'RAIDER_ENABLE_TASKS=0 mounts todo_write instead of the task tools (as Claude Code does).',
      ].join('\n'),
    );
    // After the last option, and the text ends with RAIDER_ENABLE_TASKS.
    expect(text.indexOf('X-Raider-List')).toBeGreaterThan(text.indexOf('  --version'));
    expect(text.endsWith('(as Claude Code does).')).toBe(true);
  });
});
