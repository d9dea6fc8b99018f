// Cost of the task tools against the size of the list: create, update and get must not grow
// with it; list is linear. Run with `pnpm --filter @raider/todo-tools bench`.
import { bench, describe } from 'vitest';
import { TaskTools } from '../index.js';

async function listOf(size: number): Promise<TaskTools> {
  const todos = new TaskTools({ limits: { maxTasks: Number.MAX_SAFE_INTEGER } });
  for (let i = 1; i <= size; i += 1) {
    await todos.createTask({ subject: `Task ${i}`, description: 'something to do' });
    if (i > 1 && i % 3 === 0) await todos.updateTask({ taskId: String(i), addBlockedBy: [String(i - 1)] });
  }
  return todos;
}

for (const size of [100, 1_000, 10_000]) {
  describe(`${size} tasks`, async () => {
    const todos = await listOf(size);
    let flip = false;
    const middle = String(Math.floor(size / 2));

    // Each created task is deleted again so the list keeps its size while the bench runs.
    bench('task_create (+ delete)', async () => {
      const { text } = await todos.createTask({ subject: 'One more', description: 'd' });
      await todos.updateTask({ taskId: text.slice(6, text.indexOf(' ', 6)), status: 'deleted' });
    });
    bench('task_update (status)', async () => {
      flip = !flip;
      await todos.updateTask({ taskId: middle, status: flip ? 'in_progress' : 'pending' });
    });
    bench('task_update (addBlockedBy)', async () => {
      // The link already exists after the first run: what is measured is the check, not growth.
      await todos.updateTask({ taskId: String(size), addBlockedBy: ['1'] });
    });
    bench('task_get', () => {
      todos.getTask(middle);
    });
    bench('task_list', () => {
      todos.listTasks();
    });
  });
}
