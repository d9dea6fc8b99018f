// The folder beside Claude Code 2.1.332: its per-task locks, its temporary files, its key order,
// its reset of a completed list, and a folder that appears only at the first write. The writer
// of test/claude-code-writer.mjs acts as Claude Code does (proper-lockfile with its options).
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { TaskTools } from '@raider/todo-tools';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { ClaudeCodeWriter, createdText, RETRIES, readBack, updatedText } from '../test/claude-code-writer.mjs';
import { closedAfter, tempDir } from '../test/cleanup.js';
import { openList, openTaskFolder, type TaskFolder } from './index.js';
import { formatTaskFile } from './task-file.js';

function open(path: string, options: Parameters<typeof openTaskFolder>[1] = {}): TaskFolder {
  return closedAfter(openTaskFolder(path, options));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes task `id`'s lock as Claude Code 2.1.332 does; resolves to its release. */
function claudeTaskLock(path: string, id: string): Promise<() => Promise<void>> {
  return lockfile.lock(join(path, `${id}.json`), {
    lockfilePath: join(path, `${id}.json.lock`),
    realpath: false,
    retries: RETRIES,
  });
}

/** Resolves to whether `promise` settled within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await sleep(ms);
  return settled;
}

describe('per-task locks, as Claude Code 2.1.332 takes them (<id>.json.lock)', () => {
  it("an update and a delete wait while Claude Code holds that task's lock; a create takes none", async () => {
    const path = join(tempDir(), 'list');
    const tools = new TaskTools({ store: open(path).tasks });
    await tools.createTask({ subject: 'A', description: '' });
    await tools.createTask({ subject: 'B', description: '' });
    const release = await claudeTaskLock(path, '1');
    const update = tools.updateTask({ taskId: '1', status: 'in_progress' });
    expect(await settlesWithin(update, 300)).toBe(false);
    // Held by Claude Code: raider has written nothing to that task.
    expect(JSON.parse(readFileSync(join(path, '1.json'), 'utf8')).status).toBe('pending');
    await release();
    expect((await update).text).toBe('Updated task #1 status');
    expect(existsSync(join(path, '1.json.lock'))).toBe(false);

    // The lock of the id a create takes is no obstacle: Claude Code creates under the list lock.
    const nextLock = await claudeTaskLock(path, '3');
    expect((await tools.createTask({ subject: 'C', description: '' })).text).toBe('Task #3 created successfully: C');
    await nextLock();

    const held = await claudeTaskLock(path, '2');
    const deletion = tools.updateTask({ taskId: '2', status: 'deleted' });
    expect(await settlesWithin(deletion, 300)).toBe(false);
    expect(existsSync(join(path, '2.json'))).toBe(true);
    await held();
    expect((await deletion).text).toBe('Updated task #2 deleted');
    expect(existsSync(join(path, '2.json'))).toBe(false);
  });

  it("only the tasks a change writes are locked, each lock released after; a change of another task goes on beside Claude Code's lock", async () => {
    const path = join(tempDir(), 'list');
    const tools = new TaskTools({ store: open(path).tasks });
    for (let i = 1; i <= 10; i += 1) await tools.createTask({ subject: `T${i}`, description: '' });
    // A dependency is written on both ends: both tasks' locks are held for the change, then released.
    for (let i = 2; i <= 10; i += 1) {
      expect((await tools.updateTask({ taskId: String(i), addBlockedBy: [String(i - 1)] })).text).toBe(
        `Updated task #${i} blockedBy`,
      );
    }
    expect(readdirSync(path).filter((name) => name.endsWith('.lock') && name !== '.lock')).toEqual([]);
    const release = await claudeTaskLock(path, '5');
    const update = tools.updateTask({ taskId: '6', subject: 'T6 again' });
    expect(await settlesWithin(update, 300)).toBe(true);
    const blocked = tools.updateTask({ taskId: '5', subject: 'T5 again' });
    expect(await settlesWithin(blocked, 300)).toBe(false);
    await release();
    expect((await blocked).text).toBe('Updated task #5 subject');
    const writer = new ClaudeCodeWriter(path);
    expect(await writer.update('1', { description: 'from Claude Code' })).toBe(true);
    expect(readBack(readFileSync(join(path, '1.json'), 'utf8'), '1')?.description).toBe('from Claude Code');
  });

  it('a stale task lock (Claude Code killed while holding it) is taken over', async () => {
    const path = join(tempDir(), 'list');
    const tools = new TaskTools({ store: open(path, { staleMs: 2000 }).tasks });
    await tools.createTask({ subject: 'A', description: '' });
    mkdirSync(join(path, '1.json.lock'));
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(path, '1.json.lock'), old, old);
    expect((await tools.updateTask({ taskId: '1', subject: 'A again' })).text).toBe('Updated task #1 subject');
    expect(existsSync(join(path, '1.json.lock'))).toBe(false);
  });

  it("an update Claude Code made after raider's last look is never written over: the change is refused, then made on top of it", async () => {
    const path = join(tempDir(), 'list');
    // Without the watch, raider cannot know of Claude Code's update before it looks under the lock.
    const tools = new TaskTools({ store: open(path, { watch: false }).tasks });
    await tools.createTask({ subject: 'A', description: '' });
    await new ClaudeCodeWriter(path).update('1', { description: 'written by Claude Code' });
    const answer = await tools.updateTask({ taskId: '1', subject: 'renamed by raider' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /1\.json: was changed by another writer while this change was being made \(Claude Code updates a task under that task's lock alone\); nothing was changed/,
    );
    expect(readBack(readFileSync(join(path, '1.json'), 'utf8'), '1')?.description).toBe('written by Claude Code');
    // The next call reads the list again and makes the change over Claude Code's.
    expect((await tools.updateTask({ taskId: '1', subject: 'renamed by raider' })).text).toBe(
      'Updated task #1 subject',
    );
    expect(readBack(readFileSync(join(path, '1.json'), 'utf8'), '1')).toMatchObject({
      subject: 'renamed by raider',
      description: 'written by Claude Code',
    });
  });
});

describe("Claude Code's temporary files (<id>.json.tmp.<8 hex>)", () => {
  it('are not read, never removed, and wake no watcher until renamed in', async () => {
    const path = join(tempDir(), 'list');
    const problems: string[] = [];
    const folder = open(path, { onProblem: (problem) => problems.push(problem) });
    const tools = new TaskTools({ store: folder.tasks });
    await tools.createTask({ subject: 'A', description: '' });
    // A live writer's staged update, and a killed writer's leftover: neither is raider's to touch.
    const staged = join(path, '1.json.tmp.0badc0de');
    const leftover = join(path, '7.json.tmp.deadbeef');
    writeFileSync(leftover, '{"id": "7", "subj');
    // The create's own events are heard first.
    await sleep(100);
    let woken = 0;
    folder.watch(() => {
      woken += 1;
    });
    const record = readBack(readFileSync(join(path, '1.json'), 'utf8'), '1');
    writeFileSync(staged, updatedText(record as never, { status: 'completed' }), { flag: 'wx' });
    await sleep(200);
    expect(woken).toBe(0);
    // A holder that reads the folder whole (and sweeps raider's dead temporaries) passes them by.
    const again = new TaskTools({ store: open(path, { onProblem: (problem) => problems.push(problem) }).tasks });
    await again.syncTasks();
    expect(again.listTasks()).toBe('#1 [pending] A');
    expect((await again.createTask({ subject: 'B', description: '' })).text).toBe('Task #2 created successfully: B');
    expect(existsSync(leftover)).toBe(true);
    expect(existsSync(staged)).toBe(true);
    expect(problems).toEqual([]);
    renameSync(staged, join(path, '1.json'));
    await expect.poll(() => woken, { timeout: 10_000 }).toBeGreaterThan(0);
    await tools.syncTasks();
    expect(tools.listTasks()).toBe('#1 [completed] A\n#2 [pending] B');
  });
});

describe("records in Claude Code 2.1.332's key order", () => {
  it("a task raider creates and updates is the text Claude Code would have written, and Claude Code's update of raider's file too", async () => {
    const path = join(tempDir(), 'list');
    const tools = new TaskTools({ store: open(path).tasks });
    await tools.createTask({ subject: 'Ship', description: 'it', activeForm: 'Shipping', metadata: { area: 'cli' } });
    const created = createdText({
      id: '1',
      subject: 'Ship',
      description: 'it',
      activeForm: 'Shipping',
      metadata: { area: 'cli' },
    });
    expect(readFileSync(join(path, '1.json'), 'utf8')).toBe(created);
    // A first owner comes last, as Claude Code's spread of the changes puts it.
    await tools.updateTask({ taskId: '1', owner: 'alice' });
    const owned = updatedText(readBack(created, '1') as never, { owner: 'alice' });
    expect(readFileSync(join(path, '1.json'), 'utf8')).toBe(owned);
    // Read back, the owner goes to its place in the schema's order.
    await tools.updateTask({ taskId: '1', status: 'in_progress' });
    const started = updatedText(readBack(owned, '1') as never, { status: 'in_progress' });
    expect(readFileSync(join(path, '1.json'), 'utf8')).toBe(started);
    // And Claude Code's update of raider's file is what raider reads back, field for field.
    await new ClaudeCodeWriter(path).update('1', { description: 'it, now' });
    await tools.syncTasks();
    expect(tools.getTask('1')).toContain('it, now');
  });

  it("raider's claim (a lease) comes after Claude Code's keys", () => {
    const text = formatTaskFile(
      {
        id: '4',
        subject: 'S',
        description: '',
        owner: 'bob',
        status: 'in_progress',
        blocks: [],
        blockedBy: [],
        claim: { owner: 'bob', session: 's1', leaseSeconds: 60, expiresAt: 1 },
      },
      0,
    );
    expect(Object.keys(JSON.parse(text))).toEqual([
      'id',
      'subject',
      'description',
      'status',
      'blocks',
      'blockedBy',
      'owner',
      'claim',
    ]);
    expect(text.endsWith('\n')).toBe(false);
  });
});

describe("Claude Code's reset of a completed list", () => {
  it('a task the reset deleted is never written back from what a holder remembers; ids go on above the mark', async () => {
    const path = join(tempDir(), 'list');
    // Without the watch the holder cannot know of the reset: its update must still not bring the task back.
    const blind = new TaskTools({ store: open(path, { watch: false }).tasks });
    const watching = new TaskTools({ store: open(path).tasks });
    await blind.createTask({ subject: 'A', description: '' });
    await blind.createTask({ subject: 'B', description: '' });
    await blind.updateTask({ taskId: '1', status: 'completed' });
    await blind.updateTask({ taskId: '2', status: 'completed' });
    await watching.syncTasks();
    const writer = new ClaudeCodeWriter(path);
    expect(await writer.resetIfAllCompleted()).toEqual(['1', '2']);
    const answer = await blind.updateTask({ taskId: '2', subject: 'B again' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /2\.json: was deleted by another writer .*; nothing was changed, and the task is not written back/,
    );
    expect(existsSync(join(path, '2.json'))).toBe(false);
    // The watching holder heard of the deletions.
    await expect
      .poll(async () => {
        await watching.syncTasks();
        return watching.listTasks();
      })
      .toBe('No tasks found');
    expect((await watching.updateTask({ taskId: '1', subject: 'A again' })).text).toBe('Task not found');
    expect((await blind.createTask({ subject: 'C', description: '' })).text).toBe('Task #3 created successfully: C');
    expect((await watching.createTask({ subject: 'D', description: '' })).text).toBe('Task #4 created successfully: D');
    expect(
      readdirSync(path)
        .filter((name) => /^\d+\.json$/.test(name))
        .sort(),
    ).toEqual(['3.json', '4.json']);
  });

  it("a reset that finds a task open under the list lock touches nothing (2.1.332's re-check)", async () => {
    const path = join(tempDir(), 'list');
    const tools = new TaskTools({ store: open(path).tasks });
    await tools.createTask({ subject: 'A', description: '' });
    await tools.updateTask({ taskId: '1', status: 'completed' });
    await tools.createTask({ subject: 'B', description: '' });
    expect(await new ClaudeCodeWriter(path).resetIfAllCompleted()).toEqual([]);
    await tools.syncTasks();
    expect(tools.listTasks()).toBe('#1 [completed] A\n#2 [pending] B');
  });

  it('a .highwatermark Claude Code raised is read under the lock before an id is handed out, even before the watch tells', async () => {
    const path = join(tempDir(), 'list');
    const tools = new TaskTools({ store: open(path).tasks });
    await tools.createTask({ subject: 'A', description: '' });
    await tools.updateTask({ taskId: '1', status: 'completed' });
    await sleep(50);
    // Claude Code created #2 and #3 and cleared the list, all before this process handled an
    // event of the watch (done here without yielding, so none is).
    for (const id of ['2', '3']) {
      writeFileSync(join(path, `${id}.json`), createdText({ id, subject: 'By Claude Code', description: '' }));
    }
    writeFileSync(join(path, '.highwatermark'), '3');
    for (const id of ['1', '2', '3']) rmSync(join(path, `${id}.json`));
    expect((await tools.createTask({ subject: 'D', description: '' })).text).toBe('Task #4 created successfully: D');
  });
});

describe('the folder appears at the first write', () => {
  it('reading and watching a list that does not exist leave no folder; the watch hears of it once Claude Code makes it', async () => {
    const dataDir = tempDir();
    const folder = closedAfter(openList(dataDir, 'session-1'));
    const tools = new TaskTools({ store: folder.tasks });
    let woken = 0;
    folder.watch(() => {
      woken += 1;
    });
    folder.tasks.watch?.(() => {});
    await tools.syncTasks();
    expect(tools.listTasks()).toBe('No tasks found');
    expect(await folder.tasks.changesSince(0)).toMatchObject({ put: [], removed: [] });
    expect(await folder.todo.load()).toBeUndefined();
    expect(await folder.todoWrite.load()).toBeUndefined();
    expect(readdirSync(dataDir)).toEqual([]);
    await new ClaudeCodeWriter(join(dataDir, 'session-1')).create({ subject: 'From the panel' });
    await expect.poll(() => woken, { timeout: 10_000 }).toBeGreaterThan(0);
    await tools.syncTasks();
    expect(tools.listTasks()).toBe('#1 [pending] From the panel');
  });

  it('with the data dir missing too, the folder is looked for while someone listens', async () => {
    const dataDir = join(tempDir(), 'not', 'yet');
    const folder = closedAfter(openList(dataDir, 'team'));
    const tools = new TaskTools({ store: folder.tasks });
    let woken = 0;
    folder.watch(() => {
      woken += 1;
    });
    await tools.syncTasks();
    expect(existsSync(dataDir)).toBe(false);
    const other = new TaskTools({ store: open(join(dataDir, 'team')).tasks });
    expect((await other.createTask({ subject: 'First', description: '' })).text).toBe(
      'Task #1 created successfully: First',
    );
    await expect.poll(() => woken, { timeout: 10_000 }).toBeGreaterThan(0);
    await tools.syncTasks();
    expect(tools.listTasks()).toBe('#1 [pending] First');
    // From here the folder itself is watched: a change Claude Code makes without the feed shows.
    await new ClaudeCodeWriter(join(dataDir, 'team')).update('1', { status: 'completed' });
    await expect
      .poll(async () => {
        await tools.syncTasks();
        return tools.listTasks();
      })
      .toBe('#1 [completed] First');
  });

  it('a holder that did not watch still sees the folder once made: its first change makes it, and it is read whole', async () => {
    const dataDir = tempDir();
    const path = join(dataDir, 'list');
    const tools = new TaskTools({ store: open(path, { watch: false }).tasks });
    await tools.syncTasks();
    expect(existsSync(path)).toBe(false);
    expect((await tools.createTask({ subject: 'A', description: '' })).text).toBe('Task #1 created successfully: A');
    expect(readdirSync(path).sort()).toEqual(['.lock', '.raider-changes.jsonl', '1.json']);
  });
});
