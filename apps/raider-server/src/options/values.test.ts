// The readers of the command line's texts: each names what it read when the text is wrong.
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../errors.js';
import { bool, commaList, defaultMaxConnections, integer, isLoopback, oneOf, seconds } from './values.js';

describe('the readers of option texts', () => {
  it('integer and seconds take digits within the range, naming the flag otherwise', () => {
    expect(integer('--port', ' 12 ', 0, 65535)).toBe(12);
    expect(seconds('--ask-timeout', '3', 1, 10)).toBe(3000);
    expect(() => integer('--port', '1e3', 0, 65535)).toThrow(
      new OptionsError('--port: expected a whole number from 0 to 65535, received "1e3"'),
    );
    expect(() => seconds('RAIDER_WAIT_DEADLINE', '0', 1, 86400)).toThrow(
      'RAIDER_WAIT_DEADLINE: expected a whole number from 1 to 86400, received "0"',
    );
  });

  it('bool, oneOf and commaList', () => {
    expect(['1', 'TRUE', 'yes', 'On'].map((v) => bool('X', v))).toEqual([true, true, true, true]);
    expect(['0', 'false', 'NO', 'off', ''].map((v) => bool('X', v))).toEqual([false, false, false, false, false]);
    expect(() => bool('RAIDER_HTTP', 'maybe')).toThrow(
      'RAIDER_HTTP: expected 1 or 0 (true or false), received "maybe"',
    );
    expect(oneOf('--names', 'claude', ['raider', 'claude'])).toBe('claude');
    expect(() => oneOf('--names', 'x', ['raider', 'claude'])).toThrow(
      '--names: expected one of raider, claude, received "x"',
    );
    expect(commaList(' a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(commaList(undefined)).toEqual([]);
  });

  it('isLoopback and defaultMaxConnections', () => {
    expect(['localhost', '::1', '[::1]', '127.0.0.1', '127.9.8.7'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '10.0.0.1', 'example.com', '127.0.0'].some(isLoopback)).toBe(false);
    const max = defaultMaxConnections();
    expect(max).toBeGreaterThanOrEqual(64);
    expect(max).toBeLessThanOrEqual(4096);
  });
});
