// The task tools' calls on one list, below the public class: arguments, hooks, leases, answers.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../limits.js';
import { memoryTaskStore } from '../store/task-store.js';
import { presentationOf } from '../tool-presentation.js';
import type { TaskEvent } from '../types.js';
import { SyncedTaskList } from './synced-task-list.js';
import { TaskCalls } from './task-calls.js';

function callsOn(options: { beforeTask?: (event: TaskEvent) => string | undefined; now?: () => number } = {}) {
  const now = options.now ?? (() => 0);
  const synced = new SyncedTaskList({
    store: memoryTaskStore(),
    onUpdate: undefined,
    onChange: undefined,
    now,
    maxMetadataDepth: 32,
  });
  const calls = new TaskCalls({
    synced,
    limits: { ...DEFAULT_LIMITS, maxMetadataSize: 40 },
    beforeTask: options.beforeTask,
    session: 'here',
    now,
    presentation: presentationOf({}),
  });
  return { calls, synced };
}

describe('TaskCalls', () => {
  it('answers each tool from raw arguments, with the structured content beside the text', async () => {
    const { calls } = callsOn();
    expect(await calls.create({ title: 'A', description: '' })).toEqual({
      text: 'Task #1 created successfully: A',
      isError: false,
      changed: true,
      structured: { task: expect.objectContaining({ id: '1', content: 'A' }) },
    });
    expect((await calls.update({ id: 1, status: 'in_progress' })).text).toBe('Updated task #1 status');
    expect((await calls.list({})).text).toBe('#1 [in_progress] A');
    expect((await calls.get({ taskId: 1 })).text).toBe('Task #1: A\nStatus: in_progress\nDescription: ');
    expect((await calls.list({ all: true })).text).toBe('Error: unknown argument "all"');
    expect((await calls.update({ taskId: '9', status: 'completed' })).text).toBe('Task not found');
  });

  it('refuses metadata over maxMetadataSize, and lets the hook refuse a completion', async () => {
    const { calls } = callsOn({ beforeTask: (event) => (event === 'TaskCompleted' ? 'Not yet' : undefined) });
    expect((await calls.create({ subject: 'A', description: '', metadata: { k: 'x'.repeat(50) } })).text).toBe(
      'Error: metadata: expected at most 40 characters as JSON, received 58 characters',
    );
    await calls.create({ subject: 'A', description: '' });
    expect(await calls.update({ taskId: '1', status: 'completed' })).toEqual({ text: 'Not yet', isError: true });
    expect(calls.getAnswer('1').text).toContain('Status: pending');
  });

  it("renews this session's lease on an update, and ends the claim when the task is completed", async () => {
    let now = 1_000;
    const { calls, synced } = callsOn({ now: () => now });
    await calls.create({ subject: 'A', description: '' });
    expect((await calls.claim({ owner: 'alice', leaseSeconds: 10 })).text).toBe('Claimed task #1: A');
    now = 5_000;
    expect((await calls.update({ taskId: '1', description: 'half done' })).text).toBe('Updated task #1 description');
    expect(synced.list.get('1')?.claim?.expiresAt).toBe(15_000);
    expect((await calls.update({ taskId: '1' })).text).toBe('Updated task #1 (no changes)');
    expect((await calls.update({ taskId: '1', status: 'completed' })).text).toBe('Updated task #1 status');
    expect(synced.list.get('1')?.claim).toBeUndefined();
    expect((await calls.update({ taskId: '1', status: 'deleted' })).text).toBe('Updated task #1 deleted');
    expect(calls.listAnswer().text).toBe('No tasks found');
  });
});
