// The checks on a list taken over whole: a restore, and the records a store hands in.
import { describe, expect, it } from 'vitest';
import { InvalidListError } from '../errors.js';
import { PLAIN_ITEM, PLAIN_RECORD } from '../testing/plain-task.js';
import { validTaskItems, validTaskRecords } from './task-validation.js';

const item = PLAIN_ITEM;
const record = PLAIN_RECORD;

/** Arrays nested `depth` deep. */
function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i += 1) value = [value];
  return value;
}

/** What `run` throws. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('validTaskItems', () => {
  it('takes a list in onUpdate shape as it is', () => {
    expect(validTaskItems('restoreTasks', [item, { ...item, id: '2', owner: 'bob' }], 32)).toEqual([
      item,
      { ...item, id: '2', owner: 'bob' },
    ]);
  });

  it('refuses duplicate ids, ids that are not decimal and metadata nested too deep, naming the method', () => {
    const duplicate = thrown(() => validTaskItems('restoreTasks', [item, item], 32));
    expect(duplicate).toBeInstanceOf(InvalidListError);
    expect((duplicate as Error).message).toBe(
      "restoreTasks: expected a task list in onUpdate's shape: expected unique ids",
    );
    expect((thrown(() => validTaskItems('restoreTasks', [{ ...item, id: 'x' }], 32)) as Error).message).toMatch(
      /^restoreTasks: expected a task list in onUpdate's shape: .*expected a decimal id such as "1"/,
    );
    const deep = thrown(() => validTaskItems('restoreTasks', [{ ...item, metadata: { k: nested(5_000) } }], 32));
    expect(deep).toBeInstanceOf(InvalidListError);
    expect((deep as Error).message).toMatch(/^restoreTasks: /);
  });
});

describe('validTaskRecords', () => {
  it('takes records in Claude Code shape, a claim included', () => {
    const claimed = { ...record, claim: { owner: 'a', session: 's', leaseSeconds: 60, expiresAt: 1 } };
    expect(validTaskRecords([record, { ...claimed, id: '2' }], 32)).toEqual([record, { ...claimed, id: '2' }]);
  });

  it('refuses the first wrong record by its id, cut to 20 characters', () => {
    const error = thrown(() =>
      validTaskRecords([record, { ...record, id: 'y'.repeat(50), status: 'done' } as never], 32),
    );
    expect(error).toBeInstanceOf(InvalidListError);
    expect((error as Error).message).toMatch(new RegExp(`^the stored task "${'y'.repeat(20)}": `));
  });

  it('refuses metadata nested too deep before parsing anything', () => {
    const error = thrown(() => validTaskRecords([{ ...record, metadata: { deep: nested(5_000) } }], 32));
    expect((error as Error).message).toMatch(/^the stored list: task #1's metadata nests deeper than 32 levels/);
  });
});
