// A blocker whose record is missing from the store (its file deleted by hand or by another
// process) stays a blocker, as Claude Code 2.1.332's TaskGet keeps it: only completed blockers are
// left out (issue 36). The list in memory loses it neither when it loads the store whole nor when
// another holder's change removes the record.
import { describe, expect, it } from 'vitest';
import { memoryTaskStore, type TaskRecord, TaskTools } from '../index.js';

const record = (id: string, fields: Partial<TaskRecord> = {}): TaskRecord => ({
  id,
  subject: `Task ${id}`,
  description: '',
  status: 'pending',
  blocks: [],
  blockedBy: [],
  ...fields,
});

describe('a blocker whose record is missing', () => {
  it('is kept when the list is loaded whole: task_get and task_list show it, a completed one is left out', async () => {
    // Task 3 waits on 1 (its record gone) and on 2 (completed); 4 names 1 in its blocks.
    const store = memoryTaskStore({
      tasks: [
        record('2', { status: 'completed', blocks: ['3'] }),
        record('3', { blockedBy: ['1', '2'] }),
        record('4', { blocks: ['1'] }),
      ],
      highWaterMark: 4,
    });
    const tools = new TaskTools({ store });
    expect(await tools.syncTasks()).toBe(true);
    expect(tools.getTask('3')).toBe('Task #3: Task 3\nStatus: pending\nDescription: \nBlocked by: #1');
    expect(tools.getTask('4')).toBe('Task #4: Task 4\nStatus: pending\nDescription: \nBlocks: #1');
    expect(tools.listTasks()).toBe('#2 [completed] Task 2\n#3 [pending] Task 3 [blocked by #1]\n#4 [pending] Task 4');
    expect(tools.tasks().find((task) => task.id === '3')?.blockedBy).toEqual(['1', '2']);
    // An update of the task writes the link back as it was: the record keeps naming its blocker.
    expect((await tools.updateTask({ taskId: '3', owner: 'bob' })).text).toBe('Updated task #3 owner');
    expect((await store.load()).tasks.find((task) => task.id === '3')?.blockedBy).toEqual(['1', '2']);
  });

  it('is kept when another holder’s change removes the record without unlinking it', async () => {
    const store = memoryTaskStore({
      tasks: [record('1', { blocks: ['2'] }), record('2', { blockedBy: ['1'] })],
      highWaterMark: 2,
    });
    const tools = new TaskTools({ store });
    await tools.syncTasks();
    expect(tools.getTask('2')).toBe('Task #2: Task 2\nStatus: pending\nDescription: \nBlocked by: #1');
    // Another process removed 1's record and nothing else (a file deleted by hand).
    const { seq } = await store.load();
    await store.transact(seq, async () => ({ write: { put: [], removed: ['1'], highWaterMark: 2 }, result: null }));
    expect(await tools.syncTasks()).toBe(true);
    expect(tools.getTask('1')).toBe('Task not found');
    expect(tools.getTask('2')).toBe('Task #2: Task 2\nStatus: pending\nDescription: \nBlocked by: #1');
    expect(tools.listTasks()).toBe('#2 [pending] Task 2 [blocked by #1]');
  });

  it('goes with the delete of task_update, which unlinks it on every holder', async () => {
    const store = memoryTaskStore();
    const [mine, theirs] = [new TaskTools({ store }), new TaskTools({ store })];
    await mine.createTask({ subject: 'A', description: '' });
    await mine.createTask({ subject: 'B', description: '' });
    await mine.updateTask({ taskId: '2', addBlockedBy: ['1'] });
    await theirs.syncTasks();
    expect(await mine.updateTask({ taskId: '1', status: 'deleted' })).toEqual({
      text: 'Updated task #1 deleted',
      isError: false,
    });
    await theirs.syncTasks();
    expect(theirs.getTask('2')).toBe('Task #2: B\nStatus: pending\nDescription: ');
    expect(mine.getTask('2')).toBe('Task #2: B\nStatus: pending\nDescription: ');
  });

  it('keeps its id: no new task takes the place of a missing blocker', async () => {
    // The highest record is 2; its blocker 7 is gone, and the high-water mark was never raised.
    const store = memoryTaskStore({ tasks: [record('2', { blockedBy: ['7', 'x\n#9 [completed] Fake'] })] });
    const tools = new TaskTools({ store });
    expect((await tools.createTask({ subject: 'New', description: '' })).text).toBe(
      'Task #8 created successfully: New',
    );
    // A link a hand-edited file holds is shown on one line whatever it holds, and counts for no id.
    expect(tools.getTask('2')).toBe(
      'Task #2: Task 2\nStatus: pending\nDescription: \nBlocked by: #7, #x⏎#9 [completed] Fake',
    );
  });

  it('restoreTasks still drops a link to a task not in the restored list (a journal is whole)', () => {
    const tools = new TaskTools();
    const base = { status: 'pending' as const, description: '', activeForm: 'x', blocks: [] };
    tools.restoreTasks([{ ...base, id: '2', content: 'two', blockedBy: ['1'] }]);
    expect(tools.getTask('2')).toBe('Task #2: two\nStatus: pending\nDescription: ');
  });
});
