// The beforeTask hook as Claude Code runs TaskCreated and TaskCompleted.
import { describe, expect, it } from 'vitest';
import { PLAIN_ITEM } from '../testing/plain-task.js';
import type { TaskItem } from '../types.js';
import { INTERRUPTED, runBeforeTask, untilAborted } from './task-hooks.js';

const item = PLAIN_ITEM;
const notReplaced = () => false;

describe('runBeforeTask', () => {
  it('goes on without a hook, or when the hook answers nothing (at once or later)', async () => {
    expect(await runBeforeTask(undefined, 'TaskCreated', item, undefined, notReplaced)).toBeUndefined();
    expect(await runBeforeTask(() => undefined, 'TaskCreated', item, undefined, notReplaced)).toBeUndefined();
    const later = async () => undefined;
    expect(await runBeforeTask(later, 'TaskCompleted', item, undefined, notReplaced)).toBeUndefined();
  });

  it('hands the hook the event and the task, and refuses with its text (an empty one says it blocked the call)', async () => {
    const seen: unknown[] = [];
    const hook = (event: string, task: TaskItem) => {
      seen.push([event, task.id]);
      return 'Run the tests first';
    };
    expect(await runBeforeTask(hook, 'TaskCompleted', item, undefined, notReplaced)).toBe('Run the tests first');
    expect(seen).toEqual([['TaskCompleted', '1']]);
    expect(await runBeforeTask(() => '', 'TaskCreated', item, undefined, notReplaced)).toBe(
      'TaskCreated hook blocked the call',
    );
  });

  it('refuses with the message of a hook that throws, at once or later', async () => {
    const throws = () => {
      throw new Error('no disk');
    };
    expect(await runBeforeTask(throws, 'TaskCreated', item, undefined, notReplaced)).toBe(
      'TaskCreated hook failed: no disk',
    );
    const rejects = () => Promise.reject('down');
    expect(await runBeforeTask(rejects, 'TaskCompleted', item, undefined, notReplaced)).toBe(
      'TaskCompleted hook failed: down',
    );
  });

  it('answers Interrupted when the signal aborts while the hook runs, whatever the hook says later', async () => {
    const controller = new AbortController();
    let release: (verdict: undefined) => void = () => {};
    const hook = () =>
      new Promise<undefined>((resolve) => {
        release = resolve;
      });
    const verdict = runBeforeTask(hook, 'TaskCompleted', item, controller.signal, notReplaced);
    controller.abort();
    release(undefined);
    expect(await verdict).toBe(INTERRUPTED);
    expect(INTERRUPTED).toBe('Interrupted: the task was not changed.');
  });

  it('refuses when the list was cleared or replaced while the hook ran', async () => {
    expect(
      await runBeforeTask(
        () => undefined,
        'TaskCreated',
        item,
        undefined,
        () => true,
      ),
    ).toBe('The task list was cleared or replaced while the TaskCreated hook ran; nothing was changed');
  });
});

describe('untilAborted', () => {
  it('settles as the promise does, and rejects at once when the signal aborts (or had aborted)', async () => {
    expect(await untilAborted(Promise.resolve(1), undefined)).toBe(1);
    expect(await untilAborted(Promise.resolve(2), new AbortController().signal)).toBe(2);
    await expect(untilAborted(Promise.reject(new Error('x')), new AbortController().signal)).rejects.toThrow('x');
    const aborted = new AbortController();
    aborted.abort(new Error('gone'));
    await expect(untilAborted(new Promise(() => {}), aborted.signal)).rejects.toThrow('gone');
    const later = new AbortController();
    const pending = untilAborted(new Promise(() => {}), later.signal);
    later.abort(new Error('later'));
    await expect(pending).rejects.toThrow('later');
  });
});
