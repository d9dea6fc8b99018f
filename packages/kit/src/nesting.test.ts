// The nesting walk: how many levels of arrays and objects a value holds, without recursion.
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './nesting.js';

/** `levels` objects, each holding the next under `key`; the innermost holds `leaf`. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < levels; level += 1) value = { key: value };
  return value;
}

describe('nestsDeeperThan', () => {
  it('counts a value that is no array or object as level 0, and {} as level 1', () => {
    for (const value of [undefined, null, 1, 'text', true]) expect(nestsDeeperThan(value, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan([], 1)).toBe(false);
  });

  it('is false up to max levels and true one past it, arrays and objects alike', () => {
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
    expect(nestsDeeperThan({ a: [[{ b: 1 }]] }, 4)).toBe(false);
    expect(nestsDeeperThan({ a: [[{ b: [] }]] }, 4)).toBe(true);
  });

  it('finds the deep branch beside shallow ones, whichever key holds it', () => {
    expect(nestsDeeperThan({ a: 1, b: { c: 2 }, d: nested(5) }, 5)).toBe(true);
    expect(nestsDeeperThan({ d: nested(5), a: 1 }, 6)).toBe(false);
  });

  it('judges a value 100 000 levels deep without overflowing the stack', () => {
    expect(nestsDeeperThan(nested(100_000), 32)).toBe(true);
    expect(nestsDeeperThan(nested(100_000), 100_000)).toBe(false);
  });
});
