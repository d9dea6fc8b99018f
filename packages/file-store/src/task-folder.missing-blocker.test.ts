// A blocker whose task file was deleted by hand (or by another process, without unlinking it)
// stays in task_get's `Blocked by:`, as Claude Code 2.1.332 keeps it (issue 36): for a holder that
// reads the folder afresh and for one that was watching it when the file went.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { TaskTools } from '@raider/todo-tools';
import { describe, expect, it } from 'vitest';
import { closedAfter, tempDir } from '../test/cleanup.js';
import { openTaskFolder, type TaskFolder } from './index.js';

const open = (path: string): TaskFolder => closedAfter(openTaskFolder(path));

/** Resolves at the folder's next wake-up (a change made elsewhere may have happened). */
function nextWakeUp(folder: TaskFolder): Promise<void> {
  return new Promise((resolve) => {
    const stop = folder.watch(() => {
      stop();
      resolve();
    });
  });
}

const BLOCKED = 'Task #2: Ship it\nStatus: pending\nDescription: \nBlocked by: #1';

describe('a blocker whose task file is gone', () => {
  it('stays in Blocked by for a holder watching the folder and for one reading it afresh', async () => {
    const path = join(tempDir(), 'list');
    const folder = open(path);
    const watching = new TaskTools({ store: folder.tasks });
    await watching.createTask({ subject: 'Write the parser', description: '' });
    await watching.createTask({ subject: 'Ship it', description: '' });
    expect((await watching.updateTask({ taskId: '2', addBlockedBy: ['1'] })).text).toBe('Updated task #2 blockedBy');
    expect(watching.getTask('2')).toBe(BLOCKED);

    let woken = nextWakeUp(folder);
    rmSync(join(path, '1.json'));
    // Caught up once the watch saw the file go (it may wake for other reasons first).
    while (watching.getTask('1') !== 'Task not found') {
      await woken;
      woken = nextWakeUp(folder);
      await watching.syncTasks();
    }
    expect(watching.getTask('2')).toBe(BLOCKED);
    expect(watching.listTasks()).toBe('#2 [pending] Ship it [blocked by #1]');

    const fresh = new TaskTools({ store: open(path).tasks });
    expect(await fresh.syncTasks()).toBe(true);
    expect(fresh.getTask('2')).toBe(BLOCKED);
    // An update of task 2 writes the link back as it was.
    expect((await fresh.createTask({ subject: 'Tell the team', description: '' })).text).toBe(
      'Task #3 created successfully: Tell the team',
    );
    expect((await fresh.updateTask({ taskId: '2', owner: 'bob' })).text).toBe('Updated task #2 owner');
    const reread = new TaskTools({ store: open(path).tasks });
    await reread.syncTasks();
    expect(reread.tasks().find((task) => task.id === '2')?.blockedBy).toEqual(['1']);
    // A completed blocker is left out, as before; the missing one is not.
    await reread.updateTask({ taskId: '3', addBlocks: ['2'], status: 'completed' });
    expect(reread.tasks().find((task) => task.id === '2')?.blockedBy).toEqual(['1', '3']);
    expect(reread.getTask('2')).toBe(BLOCKED);
  });
});
