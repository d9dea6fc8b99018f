// What an onChange observer is handed.
import { describe, expect, it } from 'vitest';
import { toItem } from './stored-task.js';
import { mergeChanged, partialChange } from './task-changes.js';
import { TaskList } from './task-list.js';

describe('mergeChanged', () => {
  it('adds the ids a call put and removed; the whole list stays the whole list; nothing written changes nothing', () => {
    expect(mergeChanged(undefined, { put: ['1'], removed: ['2'] })).toEqual(new Set(['1', '2']));
    expect(mergeChanged(new Set(['3']), { put: ['1'], removed: [] })).toEqual(new Set(['3', '1']));
    expect(mergeChanged(true, { put: ['1'], removed: [] })).toBe(true);
    const changed = new Set(['3']);
    expect(mergeChanged(changed, { put: [], removed: [] })).toBe(changed);
    expect(mergeChanged(undefined, { put: [], removed: [] })).toBeUndefined();
  });
});

describe('partialChange', () => {
  it('puts the tasks still in the list, removes the others, and shows only put, removed and whole', () => {
    const list = new TaskList();
    const task = list.create({ subject: 'A', description: '' });
    const change = partialChange(list, new Set(['1', '2']), 0);
    expect(change.removed).toEqual(['2']);
    expect(change.whole).toBe(false);
    expect(JSON.parse(JSON.stringify(change))).toEqual({
      put: [toItem(task)],
      removed: ['2'],
      whole: false,
    });
    expect(Object.keys({ ...change }).sort()).toEqual(['put', 'removed', 'whole']);
  });

  it('copies the tasks put when first read, as they are then, and hands the same copies after', () => {
    const list = new TaskList();
    const task = list.create({ subject: 'A', description: '' });
    const change = partialChange(list, new Set(['1']), 0);
    list.replace({ ...task, subject: 'Renamed' });
    const put = change.put;
    expect(put.map((task) => task.content)).toEqual(['Renamed']);
    expect(change.put).toBe(put);
  });

  it('shows a task whose lease has run out at `now` as released', () => {
    const list = new TaskList();
    const task = list.create({ subject: 'A', description: '' });
    list.replace({
      ...task,
      owner: 'alice',
      status: 'in_progress',
      claim: { owner: 'alice', session: 's', leaseSeconds: 1, expiresAt: 1_000 },
    });
    expect(partialChange(list, new Set(['1']), 999).put[0]).toMatchObject({ status: 'in_progress', owner: 'alice' });
    const lapsed = partialChange(list, new Set(['1']), 1_000).put[0];
    expect(lapsed?.status).toBe('pending');
    expect(lapsed).not.toHaveProperty('owner');
  });
});
