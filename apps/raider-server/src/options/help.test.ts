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
});
