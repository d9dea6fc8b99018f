// readOptions row by row: flag, else variable (an empty one unset), else default; booleans read their variable as is.
import { describe, expect, it } from 'vitest';
import { readOptions } from './read-options.js';

describe('readOptions', () => {
  it('a flag beats its variable, an empty variable is unset, and an error names what was read', () => {
    expect(readOptions(['--names', 'claude'], { RAIDER_NAMES: 'raider' }).names).toBe('claude');
    expect(readOptions([], { RAIDER_NAMES: '' }).names).toBe('raider');
    expect(() => readOptions([], { RAIDER_LOG_LEVEL: 'loud' })).toThrow(
      'RAIDER_LOG_LEVEL: expected one of error, warn, info, debug, received "loud"',
    );
    expect(() => readOptions(['--log-level', 'loud'], {})).toThrow('--log-level: expected one of');
  });

  it('--max-metadata-depth stops where a message can still carry it (64 levels, the metadata 3 below the top)', () => {
    expect(readOptions(['--max-metadata-depth', '61'], {}).limits).toEqual({ maxMetadataDepth: 61 });
    expect(() => readOptions(['--max-metadata-depth', '62'], {})).toThrow(
      '--max-metadata-depth: expected a whole number from 1 to 61, received "62"',
    );
  });

  it('booleans: the flag sets them (--no-board-app clears boardApp), else the variable, an empty one off', () => {
    expect(readOptions([], {}).boardApp).toBe(true);
    expect(readOptions([], { RAIDER_BOARD_APP: '' }).boardApp).toBe(false);
    expect(readOptions(['--no-board-app'], { RAIDER_BOARD_APP: '1' }).boardApp).toBe(false);
    expect(readOptions(['--claims'], { RAIDER_CLAIMS: 'huh' }).claims).toBe(true);
    expect(() => readOptions([], { RAIDER_CLAIMS: 'huh' })).toThrow('RAIDER_CLAIMS: expected 1 or 0');
  });

  it('the family follows RAIDER_ENABLE_TASKS when no flag or variable names one; settings no flag sets are fixed', () => {
    expect(readOptions([], { RAIDER_ENABLE_TASKS: '0' }).family).toBe('todo_write');
    expect(readOptions(['--family', 'todo'], { RAIDER_ENABLE_TASKS: '0' }).family).toBe('todo');
    const options = readOptions([], {});
    expect(options).toMatchObject({ family: 'tasks', headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, limits: {} });
    expect(options.waitDeadlineMs).toBeUndefined();
    expect(readOptions(['--max-tasks', '5', '--wait-deadline', '4'], {})).toMatchObject({
      limits: { maxTasks: 5 },
      waitDeadlineMs: 4000,
    });
  });
});
