// One task list in step with its store: calls one at a time, undone when the store refuses, observers told.
import { describe, expect, it, vi } from 'vitest';
import type { Answer } from '../answer.js';
import { memoryTaskStore, type TaskStore } from '../store/task-store.js';
import type { TaskListChange } from '../types.js';
import { SyncedTaskList } from './synced-task-list.js';

const ok: Answer = { text: 'ok', isError: false, changed: true };

function synced(store: TaskStore | undefined, onChange?: (change: TaskListChange) => void) {
  const onUpdate = vi.fn();
  const list = new SyncedTaskList({ store, onUpdate, onChange, now: () => 0, maxMetadataDepth: 32 });
  return { list, onUpdate };
}

/** Creates a task through `list`'s mutate, as task_create does. */
const create = (list: SyncedTaskList, subject: string) =>
  list.mutate(async () => {
    list.list.create({ subject, description: '' });
    return ok;
  });

describe('SyncedTaskList', () => {
  it('without a store: a call that changed the list tells onUpdate the whole list and onChange only the ids', async () => {
    const changes: TaskListChange[] = [];
    const { list, onUpdate } = synced(undefined, (change) => changes.push(change));
    await create(list, 'A');
    await list.mutate(async () => ({ text: 'nothing', isError: false }));
    expect(onUpdate).toHaveBeenCalledTimes(1);
    expect(list.items().map((task) => task.content)).toEqual(['A']);
    expect(changes.map((change) => ({ ...change }))).toEqual([
      { put: [expect.objectContaining({ id: '1' })], removed: [], whole: false },
    ]);
  });

  it('with a store: commits each change, and another holder catches up from the change feed', async () => {
    const store = memoryTaskStore();
    const { list } = synced(store);
    await create(list, 'A');
    expect((await store.load()).tasks.map((record) => record.subject)).toEqual(['A']);
    const other = synced(store);
    expect(await other.list.sync()).toBe(true);
    expect(other.list.items().map((task) => task.content)).toEqual(['A']);
    expect(other.onUpdate).toHaveBeenCalledTimes(1);
    expect(await other.list.sync()).toBe(false);
  });

  it('undoes a call the store refuses, answers the store problem, and loads the list whole at the next call', async () => {
    const store = memoryTaskStore();
    const failing: TaskStore = { ...store, transact: () => Promise.reject(new Error('disk full')) };
    const { list, onUpdate } = synced(failing);
    expect(await create(list, 'A')).toEqual({
      text: 'Error: the task list could not be read or saved: disk full',
      isError: true,
    });
    expect(list.items()).toEqual([]);
    expect(list.list.nextId).toBe(1);
    expect(onUpdate).not.toHaveBeenCalled();
  });

  it('a read catches up first; a store that cannot be read is an answer, not a rejection', async () => {
    const store = memoryTaskStore();
    await create(synced(store).list, 'A');
    const { list } = synced(store);
    expect(await list.read(() => ({ text: String(list.items().length), isError: false }))).toEqual({
      text: '1',
      isError: false,
    });
    const broken = synced({ ...store, load: () => Promise.reject(new Error('gone')) });
    expect((await broken.list.read(() => ok)).text).toBe('Error: the task list could not be read or saved: gone');
  });

  it('clear and restore replace the list and count as a replacement (a hook running meanwhile sees it)', () => {
    const { list } = synced(undefined);
    const before = list.generation;
    list.restore([
      { id: '2', content: 'B', status: 'pending', activeForm: 'B', description: '', blocks: [], blockedBy: [] },
    ]);
    expect(list.items().map((task) => task.id)).toEqual(['2']);
    expect(list.list.nextId).toBe(3);
    list.clear();
    expect(list.items()).toEqual([]);
    expect(list.generation).toBe(before + 2);
    expect(() => list.restore([{ id: 'x' } as never])).toThrow(/^restoreTasks: /);
  });
});
