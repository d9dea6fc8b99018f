// What a call costs on a list in PostgreSQL against the same call on a list folder (the file
// store), at 1 000 tasks, through TaskTools, in one run. The database is an embedded PostgreSQL 18
// on loopback (or RAIDER_TEST_DATABASE_URL). Run with `pnpm --filter @raider/postgres-store bench`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTaskFolder } from '@raider/file-store';
import { TaskTools } from '@raider/todo-tools';
import { afterAll, bench, describe } from 'vitest';
import { startPostgres } from '../test/postgres-server.js';
import { openPostgresLists } from './index.js';

const SIZE = 1000;
const started = process.env.RAIDER_TEST_DATABASE_URL ? undefined : await startPostgres();
const url = process.env.RAIDER_TEST_DATABASE_URL ?? (started?.url as string);
const lists = openPostgresLists({ connectionString: url });
afterAll(async () => {
  await lists.close();
  await started?.destroy();
});

async function filled(tools: TaskTools): Promise<TaskTools> {
  for (let i = 1; i <= SIZE; i += 1) await tools.createTask({ subject: `Task ${i}`, description: 'something to do' });
  return tools;
}

const onPostgres = await filled(
  new TaskTools({ store: lists.list(`bench-${Date.now()}`).tasks, limits: { maxTasks: 10_000 } }),
);
const onFiles = await filled(
  new TaskTools({
    store: openTaskFolder(join(mkdtempSync(join(tmpdir(), 'raider-pg-bench-')), 'list')).tasks,
    limits: { maxTasks: 10_000 },
  }),
);
const reader = new TaskTools({ store: lists.list(`bench-read-${Date.now()}`).tasks });
await reader.createTask({ subject: 'A', description: '' });

let flip = false;
describe(`task_update at ${SIZE} tasks`, () => {
  bench('PostgreSQL', async () => {
    flip = !flip;
    await onPostgres.updateTask({ taskId: '500', status: flip ? 'in_progress' : 'pending' });
  });
  bench('file store', async () => {
    flip = !flip;
    await onFiles.updateTask({ taskId: '500', status: flip ? 'in_progress' : 'pending' });
  });
});

describe(`task_create (+ delete) at ${SIZE} tasks`, () => {
  for (const [name, tools] of [
    ['PostgreSQL', onPostgres],
    ['file store', onFiles],
  ] as const) {
    bench(name, async () => {
      const { text } = await tools.createTask({ subject: 'One more', description: 'd' });
      await tools.updateTask({ taskId: text.slice(6, text.indexOf(' ', 6)), status: 'deleted' });
    });
  }
});

describe('a read when nothing changed (task_get: the feed is checked first)', () => {
  bench('PostgreSQL', async () => {
    await onPostgres.syncTasks();
  });
  bench('file store', async () => {
    await onFiles.syncTasks();
  });
});
