// Links between tasks and the cycle check.
import { describe, expect, it } from 'vitest';
import type { StoredTask } from './stored-task.js';
import { cycleIn, mirrorLinks, newLinks, unlinkDropped } from './task-links.js';

function task(id: string, blockedBy: string[] = [], blocks: string[] = []): StoredTask {
  return {
    id,
    subject: id,
    description: '',
    status: 'pending',
    blocks: new Set(blocks),
    blockedBy: new Set(blockedBy),
  };
}

/** A chain: each task waits on the one before it (2 on 1, 3 on 2, ...). */
function chain(length: number): Map<string, StoredTask> {
  const tasks = new Map<string, StoredTask>();
  for (let i = 1; i <= length; i += 1) {
    tasks.set(String(i), task(String(i), i > 1 ? [String(i - 1)] : [], i < length ? [String(i + 1)] : []));
  }
  return tasks;
}

describe('newLinks', () => {
  it('adds the ids not linked yet and returns them, skipping those already there', () => {
    const tasks = chain(3);
    const into = new Set(['1']);
    expect(newLinks(tasks, task('3'), ['1', '2', '2'], into, 'addBlockedBy')).toEqual(['2']);
    expect(into).toEqual(new Set(['1', '2']));
  });

  it('refuses the task itself and an id with no task, in the words of task_update', () => {
    const tasks = chain(2);
    expect(newLinks(tasks, task('2'), ['2'], new Set(), 'addBlocks')).toBe(
      'addBlocks: a task cannot depend on itself; expected ids of other tasks, received "2" on task #2',
    );
    expect(newLinks(tasks, task('2'), ['9'], new Set(), 'addBlockedBy')).toBe(
      'addBlockedBy: expected ids of existing tasks, received "9" (there is no task #9)',
    );
  });
});

describe('cycleIn', () => {
  it('refuses a blocker that already waits on the task, and a dependant it already waits on', () => {
    const tasks = chain(3);
    const one = task('1', ['3']);
    expect(cycleIn(tasks, { next: one, newBlocks: [], newBlockedBy: ['3'] })).toBe(
      'addBlockedBy: expected ids of tasks that do not wait on #1, received "3" (#3 already waits on #1: a cycle would block them both for ever)',
    );
    const three = task('3', ['2'], ['1']);
    expect(cycleIn(tasks, { next: three, newBlocks: ['1'], newBlockedBy: [] })).toBe(
      'addBlocks: expected ids of tasks #3 does not wait on, received "1" (#3 already waits on #1: a cycle would block them both for ever)',
    );
  });

  it('finds nothing when no new link closes a cycle, or when there is no new link', () => {
    const tasks = chain(3);
    expect(cycleIn(tasks, { next: task('3', ['2', '1']), newBlocks: [], newBlockedBy: ['1'] })).toBeUndefined();
    expect(cycleIn(tasks, { next: task('1'), newBlocks: [], newBlockedBy: [] })).toBeUndefined();
  });

  it('walks a chain longer than a recursive walk could (20 000 tasks) without overflowing the stack', () => {
    const tasks = chain(20_000);
    const first = task('1', ['20000']);
    expect(cycleIn(tasks, { next: first, newBlocks: [], newBlockedBy: ['20000'] })).toMatch(/^addBlockedBy: /);
  });
});

describe('mirrorLinks and unlinkDropped', () => {
  it("add a task's links to the other ends, and take away the ones it dropped", () => {
    const tasks = new Map([
      ['1', task('1')],
      ['2', task('2')],
      ['3', task('3')],
    ]);
    const before = task('2', ['1'], ['3']);
    tasks.set('2', before);
    mirrorLinks(tasks, before);
    expect([tasks.get('1')?.blocks, tasks.get('3')?.blockedBy]).toEqual([new Set(['2']), new Set(['2'])]);
    const after = task('2', ['1']);
    tasks.set('2', after);
    unlinkDropped(tasks, before, after);
    expect([tasks.get('1')?.blocks, tasks.get('3')?.blockedBy]).toEqual([new Set(['2']), new Set()]);
  });
});
