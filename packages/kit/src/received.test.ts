// The one describer of a received value, in each of the packages' wordings (their tests pin the
// texts these make: the tools', the MessageStore contract's, the server's guard's, tool-names').
import { describe, expect, it } from 'vitest';
import { QUOTE_LIMIT, received } from './received.js';

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

describe("received, by 'value' (the default)", () => {
  it('quotes a value whose JSON fits in 80 characters, and says nothing for undefined', () => {
    expect(received(undefined)).toBe('nothing');
    expect(received('done')).toBe('"done"');
    expect(received([1, 2])).toBe('[1,2]');
    expect(received({ a: 1 })).toBe('{"a":1}');
    expect(received(null)).toBe('null');
    expect(received(3)).toBe('3');
    expect(received(true)).toBe('true');
    expect(received('x'.repeat(QUOTE_LIMIT - 2))).toBe(`"${'x'.repeat(78)}"`);
  });

  it('describes a longer value by its kind and size, never echoing it', () => {
    expect(received('x'.repeat(201))).toBe('a string of 201 characters');
    expect(received(Array.from({ length: 500 }, () => 'item'))).toBe('an array of 500 items');
    expect(received(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, i])))).toBe(
      'an object with 40 keys',
    );
  });

  it('with excerpt, follows a long string by its first 30 characters as a quote left open', () => {
    expect(received('x'.repeat(1_000_000), { excerpt: true })).toBe(
      `a string of 1000000 characters ("${'x'.repeat(30)}…")`,
    );
    expect(received('short', { excerpt: true })).toBe('"short"');
  });

  it('names the type of a value without JSON, and never throws', () => {
    expect(received(() => 1)).toBe('a value of type function');
    expect(received(Symbol('s'))).toBe('a value of type symbol');
    expect(received(10n)).toBe('a value of type bigint');
    expect(received(cyclic)).toBe('an object with 2 keys');
  });

  it('quotes one plain line: bidi, C1 controls, DEL and line separators written as \\uXXXX', () => {
    const shown = received('a\u001b[31mb\u202e\u2028\u0085\u007f');
    expect(shown).toBe('"a\\u001b[31mb\\u202e\\u2028\\u0085\\u007f"');
    expect(JSON.parse(shown)).toBe('a\u001b[31mb\u202e\u2028\u0085\u007f');
    const long = received(`\u202e${'y'.repeat(100)}`, { excerpt: true });
    expect(long).toBe(`a string of 101 characters ("\\u202e${'y'.repeat(29)}…")`);
  });
});

describe("received, by 'type' (the MessageStore contract)", () => {
  const type = (value: unknown) => received(value, { by: 'type' });

  it('quotes a string that fits, sizes a longer one, and names any other value by its type', () => {
    expect(type(undefined)).toBe('nothing');
    expect(type(null)).toBe('null');
    expect(type('bob')).toBe('"bob"');
    expect(type('b'.repeat(201))).toBe('a string of 201 characters');
    expect(type(7)).toBe('number');
    expect(type(true)).toBe('boolean');
    expect(type({})).toBe('object');
    expect(type([1])).toBe('an array');
    expect(type(() => 1)).toBe('function');
  });

  it('shows a bidi control escaped, so a quoted name cannot reorder the message', () => {
    expect(type('a\u202eb')).toBe('"a\\u202eb"');
  });
});

describe("received, by 'kind' (never quoted)", () => {
  const kind = (value: unknown) => received(value, { by: 'kind' });

  it('names the kind only, an array with its length', () => {
    expect(kind(undefined)).toBe('nothing');
    expect(kind(null)).toBe('null');
    expect(kind('x')).toBe('a string');
    expect(kind(5)).toBe('a number');
    expect(kind(false)).toBe('a boolean');
    expect(kind({ a: 1 })).toBe('an object');
    expect(kind([1, 2])).toBe('an array of 2 items');
  });
});

describe("received, by 'javascript' (a library function's argument)", () => {
  const js = (value: unknown) => received(value, { by: 'javascript' });

  it("says what JavaScript would: undefined, null, an array, a class's instance, the string, number 5", () => {
    expect(js(undefined)).toBe('undefined');
    expect(js(null)).toBe('null');
    expect(js([])).toBe('an array');
    expect(js(new Map())).toBe('an instance of Map');
    expect(js(Object.create(null))).toBe('an instance of an unknown class');
    expect(js('')).toBe('the string ""');
    expect(js('ls')).toBe('the string "ls"');
    expect(js(5)).toBe('number 5');
  });

  it('sizes a long string rather than echoing it', () => {
    expect(js('z'.repeat(300))).toBe('a string of 300 characters');
  });
});
