// Cost of the queue and of waking waiters. Run with `pnpm --filter @raider/tasks-registry bench`.
import { bench, describe } from 'vitest';
import { notificationText, TaskRegistry } from './index.js';

describe('queue', () => {
  const note = notificationText({ taskId: 'agent_1', status: 'completed', summary: 'Agent "x" finished' });

  bench(
    '100 000 notify + take cycles',
    () => {
      const tasks = new TaskRegistry();
      for (let i = 0; i < 100_000; i += 1) {
        tasks.notify('main', note, { id: 'agent_1' });
        tasks.take('main');
      }
    },
    { iterations: 5, time: 0 },
  );

  bench(
    '10 000 concurrent waiters woken',
    async () => {
      const tasks = new TaskRegistry();
      const waits = Array.from({ length: 10_000 }, () => tasks.waitFor('main'));
      tasks.post('main', 'wake up');
      await Promise.all(waits);
    },
    { iterations: 5, time: 0 },
  );
});
