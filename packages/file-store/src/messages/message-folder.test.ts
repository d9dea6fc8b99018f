// The list folder's message store: the MessageStore contract (two folder handles standing for two
// processes), then what the folder adds: its layout, Claude Code's reader passing it by, a file
// that cannot be read, and a watch that waits for an inbox not made yet.
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeMessageStoreConformance } from '@raider/tasks-registry/conformance';
import { TaskTools } from '@raider/todo-tools';
import { describe, expect, it } from 'vitest';
import { ClaudeCodeWriter } from '../../test/claude-code-writer.mjs';
import { closedAfter, tempDir } from '../../test/cleanup.js';
import { openTaskFolder, type TaskFolderOptions } from '../index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function open(path: string, options: TaskFolderOptions = {}) {
  return closedAfter(openTaskFolder(path, options));
}

describeMessageStoreConformance(
  'TaskFolder.messages',
  ({ limits }) => {
    const path = join(tempDir(), 'list');
    return {
      store: open(path, { messageLimits: limits }).messages,
      other: async () => open(path, { messageLimits: limits }).messages,
    };
  },
  { describe, it, expect },
);

const plain = (to: string, text: string, from?: string) => ({
  to,
  text,
  notification: false,
  ...(from === undefined ? {} : { from }),
});

describe('the inboxes in the list folder', () => {
  it('one folder per agent under .messages/, one file per message named by its id, holding the rest as one line of JSON; ids increase across the list', async () => {
    const path = join(tempDir(), 'list');
    const { messages } = open(path);
    const first = await messages.send(plain('team-lead', 'one', 'Bob'));
    const second = await messages.send(plain('Bob', 'two'));
    const third = await messages.send(plain('team-lead', 'three'));
    expect(Number(second.id)).toBeGreaterThan(Number(first.id));
    expect(Number(third.id)).toBeGreaterThan(Number(second.id));
    expect(readdirSync(path)).toEqual(['.messages']);
    // Beside the inboxes: the last id handed out, and this handle's file of the message lock (linked as .lock while held).
    const root = readdirSync(join(path, '.messages')).sort();
    expect(root.filter((name) => !name.startsWith('.holder.'))).toEqual(['%42ob', '.last-id', 'team-lead']);
    expect(root.filter((name) => name.startsWith('.holder.'))).toEqual([
      expect.stringMatching(new RegExp(`^\\.holder\\.${process.pid}\\.\\d+\\.tmp$`)),
    ]);
    expect(readdirSync(join(path, '.messages', 'team-lead')).sort()).toEqual([`${first.id}.json`, `${third.id}.json`]);
    // The id is the file's name (the file is written before the id is handed out).
    const { id: _, ...unnamed } = first;
    expect(readFileSync(join(path, '.messages', 'team-lead', `${first.id}.json`), 'utf8')).toBe(
      `${JSON.stringify(unnamed)}\n`,
    );
    // A take's lease is a rename, visible to every process; done removes the files.
    const delivery = await messages.take('team-lead', { leaseMs: 60_000 });
    const leased = readdirSync(join(path, '.messages', 'team-lead')).sort();
    expect(leased).toHaveLength(2);
    for (const name of leased) expect(name).toMatch(/^\d+\.json\.\d+\.[0-9a-f]{16}\.lease$/);
    await delivery.done();
    expect(readdirSync(join(path, '.messages', 'team-lead'))).toEqual([]);
  });

  it("Claude Code's reader and its reset pass the inboxes by; the tasks' store and watch do too", async () => {
    const path = join(tempDir(), 'list');
    const folder = open(path);
    const tools = new TaskTools({ store: folder.tasks });
    await tools.createTask({ subject: 'Only task', description: '' });
    let woken = 0;
    folder.watch(() => {
      woken += 1;
    });
    await tools.syncTasks();
    // The create's own events may still come: counted from here.
    await sleep(200);
    woken = 0;
    const kept = await folder.messages.send(plain('bob', 'kept'));
    await sleep(200);
    expect(woken, 'a message wakes no task watcher').toBe(0);
    const claude = new ClaudeCodeWriter(path);
    expect(claude.list().map((record) => record.id)).toEqual(['1']);
    await tools.updateTask({ taskId: '1', status: 'completed' });
    expect(await claude.resetIfAllCompleted()).toEqual(['1']);
    expect(await folder.messages.peek('bob')).toEqual([kept]);
    const reread = new TaskTools({ store: open(path).tasks });
    await reread.syncTasks();
    expect(reread.listTasks()).toBe('No tasks found');
  });

  it('a message file that cannot be read is skipped, reported and moved aside; the others are taken, in order', async () => {
    const path = join(tempDir(), 'list');
    const problems: string[] = [];
    const { messages } = open(path, { onProblem: (problem) => problems.push(problem) });
    const before = await messages.send(plain('bob', 'before'));
    const inbox = join(path, '.messages', 'bob');
    const badId = Number(before.id) + 1;
    writeFileSync(join(inbox, `${badId}.json`), '{"id": "torn');
    writeFileSync(join(inbox, `${badId + 1}.json`), JSON.stringify({ ...before, id: String(badId + 1), to: 'eve' }));
    symlinkSync('/etc/passwd', join(inbox, `${badId + 2}.json`));
    const after = await messages.send(plain('bob', 'after'));
    const delivery = await messages.take('bob');
    expect(delivery.messages).toEqual([before, after]);
    await delivery.done();
    expect(problems).toHaveLength(3);
    expect(problems[0]).toBe(
      `${join(inbox, `${badId}.json`)}: not valid JSON (12 characters); the message is skipped, moved aside to ${badId}.json.corrupt`,
    );
    expect(problems[1]).toContain("its recipient is not the inbox's agent");
    expect(problems[2]).toContain('is a symbolic link');
    expect(problems.join('\n')).not.toContain('root:');
    expect(readdirSync(inbox).sort()).toEqual([0, 1, 2].map((offset) => `${badId + offset}.json.corrupt`));
    // Out of the inbox: not reported again, not counted against its bound.
    expect(await messages.peek('bob')).toEqual([]);
    expect(problems).toHaveLength(3);
  });

  it("a killed sender's temporary file is removed by the next call under the lock", async () => {
    const path = join(tempDir(), 'list');
    const { messages } = open(path);
    await messages.send(plain('bob', 'one'));
    const inbox = join(path, '.messages', 'bob');
    // No process has pid 2^22 + 1 (above Linux's pid_max default).
    const dead = `.1.json.${2 ** 22 + 1}.1.tmp`;
    const live = `.1.json.${process.pid}.999.tmp`;
    writeFileSync(join(inbox, dead), 'half');
    writeFileSync(join(inbox, live), 'half');
    await messages.send(plain('bob', 'two'));
    expect(existsSync(join(inbox, dead))).toBe(false);
    expect(existsSync(join(inbox, live))).toBe(true);
  });

  it('a watch begun before the list folder exists is called once a message comes, from another handle', async () => {
    const dataDir = tempDir();
    const path = join(dataDir, 'list');
    const waiting = open(path).messages;
    let calls = 0;
    const stop = waiting.watch('bob', () => {
      calls += 1;
    });
    try {
      expect(existsSync(path)).toBe(false);
      await open(path).messages.send(plain('carol', 'the folders are made'));
      await sleep(100);
      await open(path).messages.send(plain('bob', 'for bob'));
      await expect.poll(() => calls, { timeout: 20_000 }).toBeGreaterThan(0);
      expect((await waiting.peek('bob')).map((message) => message.text)).toEqual(['for bob']);
    } finally {
      stop();
    }
  });

  it('a watch is called when a lease taken elsewhere lapses with its messages (a killed taker), with no new send', async () => {
    const path = join(tempDir(), 'list');
    const { messages } = open(path);
    await messages.send(plain('bob', 'one'));
    let calls = 0;
    const stop = messages.watch('bob', () => {
      calls += 1;
    });
    try {
      await sleep(100);
      calls = 0;
      // Taken by another handle that then dies: no done, no release.
      const lost = await open(path).messages.take('bob', { leaseMs: 500 });
      expect(lost.messages).toHaveLength(1);
      await expect.poll(() => calls, { timeout: 20_000 }).toBeGreaterThan(0);
      expect((await messages.take('bob')).messages.map((message) => message.text)).toEqual(['one']);
    } finally {
      stop();
    }
  });

  it('takes do not wake their own watch: a watch is called for messages that came, not for those taken away', async () => {
    const path = join(tempDir(), 'list');
    const { messages } = open(path);
    let calls = 0;
    const stop = messages.watch('bob', () => {
      calls += 1;
    });
    try {
      await open(path).messages.send(plain('bob', 'one'));
      await expect.poll(() => calls, { timeout: 20_000 }).toBe(1);
      const delivery = await open(path).messages.take('bob', { leaseMs: 60_000 });
      await delivery.done();
      await sleep(300);
      expect(calls).toBe(1);
    } finally {
      stop();
    }
  });

  it('bad message limits are refused when the folder is opened', () => {
    expect(() => openTaskFolder('/tmp/unused', { messageLimits: { maxInboxMessages: 0 } })).toThrow(
      /maxInboxMessages: expected a positive integer, received 0/,
    );
    expect(() => openTaskFolder('/tmp/unused', { messageLimits: { maxAgeMs: '1d' as never } })).toThrow(
      /maxAgeMs: expected a positive number, received "1d"/,
    );
  });
});
