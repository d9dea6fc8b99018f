// Did you mean: the nearest known flags to an unknown one, by edit distance (swaps count one).
import { describe, expect, it } from 'vitest';
import { FLAGS } from './flag-table.js';
import { editDistance, nearestFlags } from './nearest-flag.js';
import { readOptions } from './read-options.js';

const KNOWN = FLAGS.map((f) => f.flag);

describe('did you mean', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('databse-url', 'database-url')).toBe(1);
    expect(editDistance('prot', 'port')).toBe(1);
    expect(editDistance('port', 'port')).toBe(0);
    expect(editDistance('', 'port')).toBe(4);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('names the nearest known flags, any case, with or without a value; none when nothing is near', () => {
    expect(nearestFlags('--databse-url', KNOWN)).toEqual(['database-url']);
    expect(nearestFlags('--databse-url=postgres://h/d', KNOWN)).toEqual(['database-url']);
    expect(nearestFlags('--Port', KNOWN)).toEqual(['port']);
    expect(nearestFlags('--verison', KNOWN)).toEqual(['version']);
    expect(nearestFlags('--wait-for-databse', KNOWN)).toEqual(['wait-for-database']);
    expect(nearestFlags('--max-task-items', ['max-tasks', 'max-todo-items'])).toEqual(['max-todo-items']);
    // Several at the same distance: at most three, in the table's order.
    expect(nearestFlags('--ab', ['ac', 'ad', 'ae', 'af'])).toEqual(['ac', 'ad', 'ae']);
    // Else the flags it begins (four characters at least).
    expect(nearestFlags('--database', KNOWN)).toEqual(['database-url', 'database-pool-size', 'database-lock-timeout']);
    expect(nearestFlags('--max-metadata', KNOWN)).toEqual(['max-metadata-size', 'max-metadata-depth']);
    expect(nearestFlags('--max', ['max-tasks'])).toEqual([]);
    expect(nearestFlags('--frobnicate', KNOWN)).toEqual([]);
    expect(nearestFlags('--', KNOWN)).toEqual([]);
  });

  it('an unknown flag is an OptionsError naming the nearest (the CLI prints it and exits 2)', () => {
    expect(() => readOptions(['--databse-url', 'postgres://h/d'], {})).toThrow(
      'unknown flag --databse-url: did you mean --database-url?',
    );
    expect(() => readOptions(['--max-metadata', '5'], {})).toThrow(
      'unknown flag --max-metadata: did you mean --max-metadata-size or --max-metadata-depth?',
    );
    expect(() => readOptions(['--database'], {})).toThrow(
      'unknown flag --database: did you mean --database-url, --database-pool-size or --database-lock-timeout?',
    );
    expect(() => readOptions(['--ab'], {})).toThrow(/^unknown flag --ab$/);
    expect(() => readOptions(['--frobnicate'], {})).toThrow(/^unknown flag --frobnicate$/);
    // Other refusals of the parser keep its words.
    expect(() => readOptions(['--port'], {})).toThrow("Option '--port <value>' argument missing");
  });
});
