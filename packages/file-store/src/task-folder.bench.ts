// Cost of a durable list in its folder against its size: an update, a create and a get must not
// grow with the list, and an update stays within a small factor of the floor (one fsync'd write
// of one small file plus its rename), measured in the same run. A catch-up of 1 000 changes made
// by another holder costs far less than reading the list whole.
// Run with `pnpm --filter @raider/file-store bench` (outside `pnpm test`).
import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskTools } from '@raider/todo-tools';
import { bench, describe } from 'vitest';
import { replaceFile, syncFolder, temporaryPath } from './durable-write.js';
import { openTaskFolder } from './index.js';
import { formatTaskFile } from './task-file.js';

const SIZES = [100, 1_000, 10_000];
const root = mkdtempSync(join(tmpdir(), 'raider-file-bench-'));

/** A folder of `size` tasks written as Claude Code would (plain writes: this is setup, not measured). */
function folderOf(size: number): string {
  const path = join(root, `list-${size}`);
  mkdirSync(path, { recursive: true });
  for (let i = 1; i <= size; i += 1) {
    const record = {
      id: String(i),
      subject: `Task ${i}`,
      description: 'something to do, with a sentence or two of detail as a model writes it',
      status: 'pending' as const,
      blocks: [],
      blockedBy: i > 1 && i % 3 === 0 ? [String(i - 1)] : [],
    };
    writeFileSync(join(path, `${i}.json`), formatTaskFile(record));
  }
  return path;
}

async function toolsOn(path: string, size: number): Promise<TaskTools> {
  const tools = new TaskTools({
    store: openTaskFolder(path).tasks,
    limits: { maxTasks: 1_000_000 },
  });
  await tools.syncTasks();
  if (tools.tasks().length !== size) throw new Error(`expected ${size} tasks`);
  return tools;
}

const folders = new Map(SIZES.map((size) => [size, folderOf(size)]));
const lists = new Map<number, TaskTools>();
for (const size of SIZES) lists.set(size, await toolsOn(folders.get(size) as string, size));
const list = (size: number) => lists.get(size) as TaskTools;

// The floor: what one durable small-file change costs on this disk (the system calls alone, on
// the event loop), and the same calls as the store makes them, off the event loop (disk.ts).
const floorPath = join(root, 'floor');
mkdirSync(floorPath);
const floorData = Buffer.from(
  formatTaskFile({ id: '1', subject: 'Floor', description: 'x', status: 'pending', blocks: [], blockedBy: [] }),
);

/** A small file written whole and fsynced under a temporary name, then renamed in: synchronous calls. */
function floorWrite(): void {
  const temporary = temporaryPath(join(floorPath, '1.json'));
  const fd = openSync(temporary, 'wx', 0o644);
  writeSync(fd, floorData);
  fsyncSync(fd);
  fstatSync(fd);
  closeSync(fd);
  renameSync(temporary, join(floorPath, '1.json'));
}

describe('task_update (one task file)', () => {
  bench('floor: fsync of one small file + rename', () => {
    floorWrite();
  });
  bench('floor + folder fsync', () => {
    floorWrite();
    const fd = openSync(floorPath, 'r');
    fsyncSync(fd);
    closeSync(fd);
  });
  bench('floor + folder fsync, off the event loop', async () => {
    await replaceFile(join(floorPath, '1.json'), floorData);
    await syncFolder(floorPath);
  });
  for (const size of SIZES) {
    let flip = false;
    const middle = String(Math.floor(size / 2) + 1);
    bench(`${size} tasks`, async () => {
      flip = !flip;
      const { isError } = await list(size).updateTask({ taskId: middle, status: flip ? 'in_progress' : 'pending' });
      if (isError) throw new Error('update failed');
    });
  }
});

describe('task_create (+ delete, so the size stays)', () => {
  for (const size of SIZES) {
    bench(`${size} tasks`, async () => {
      const { text } = await list(size).createTask({ subject: 'One more', description: 'd' });
      await list(size).updateTask({ taskId: text.slice(6, text.indexOf(' ', 6)), status: 'deleted' });
    });
  }
});

describe('task_get (a read: the feed is checked first)', () => {
  for (const size of SIZES) {
    const middle = String(Math.floor(size / 2));
    bench(`${size} tasks`, async () => {
      await list(size).syncTasks();
      list(size).getTask(middle);
    });
  }
});

describe('another holder at 10 000 tasks: catch up on 1 000 changes, or read the list whole', () => {
  const path = folders.get(10_000) as string;
  const store = openTaskFolder(path, { watch: false }).tasks;
  let before = 0;
  // Made when the bench starts (the benches before it change the same list).
  const thousandChanges = async () => {
    before = (await store.load()).seq;
    const writer = list(10_000);
    for (let i = 0; i < 1000; i += 1) await writer.updateTask({ taskId: String(1 + (i % 500)), owner: `o${i}` });
  };
  bench(
    'catch up on the 1 000 changes since (what they name, read again)',
    async () => {
      const delta = await store.changesSince(before);
      if (delta?.put.length !== 500) throw new Error('expected the 500 tasks the changes touched');
    },
    { setup: thousandChanges },
  );
  bench('read the list whole', async () => {
    await store.load();
  });
});
