// What a tracked call wrote, and its undo.
import { describe, expect, it } from 'vitest';
import { type StoredTask, toRecord } from './stored-task.js';
import { ChangeTracker } from './task-change-tracker.js';

function task(id: string, fields: Partial<StoredTask> = {}): StoredTask {
  return {
    id,
    subject: `Task ${id}`,
    description: '',
    status: 'pending',
    blocks: new Set(),
    blockedBy: new Set(),
    ...fields,
  };
}

describe('ChangeTracker', () => {
  it('keeps each touched task as it was the first time it was touched, a copy that later changes do not reach', () => {
    const tasks = new Map([['1', task('1', { metadata: { n: 1 } })]]);
    const tracker = new ChangeTracker(true, 2);
    tracker.remember(['1', '2'], tasks);
    (tasks.get('1')?.metadata as { n: number }).n = 2;
    tasks.get('1')?.blocks.add('2');
    tasks.set('2', task('2'));
    tracker.remember(['1', '2'], tasks);
    expect(new Map(tracker.undo())).toEqual(
      new Map([
        ['1', task('1', { metadata: { n: 1 } })],
        ['2', undefined],
      ]),
    );
    expect(tracker.undoable).toBe(true);
    expect(tracker.nextId).toBe(2);
  });

  it('keeps nothing to undo when not undoable (no copy per task)', () => {
    const tracker = new ChangeTracker(false, 1);
    tracker.remember(['1'], new Map([['1', task('1')]]));
    expect(tracker.undoable).toBe(false);
    expect([...tracker.undo()]).toEqual([]);
  });

  it('writes the tasks put as they are now, the ids removed, and the high-water mark below the next id', () => {
    const tasks = new Map([
      ['1', task('1', { status: 'completed' })],
      ['3', task('3')],
    ]);
    const tracker = new ChangeTracker(false, 1);
    tracker.put.add('1');
    tracker.put.add('2');
    tracker.put.add('3');
    tracker.markRemoved('2');
    expect(tracker.ids()).toEqual({ put: ['1', '3'], removed: ['2'] });
    expect(tracker.write(tasks, 4)).toEqual({
      put: [toRecord(task('1', { status: 'completed' })), toRecord(task('3'))],
      removed: ['2'],
      highWaterMark: 3,
    });
  });
});
