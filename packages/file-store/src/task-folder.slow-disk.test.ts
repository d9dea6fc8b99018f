// The store on a slow disk: while one list's write waits for the disk, the event loop goes on,
// so another list's calls (another session's, in a server) are answered and timers fire. The
// stand-in for the slow disk holds the next fsync until the test lets it go: the store makes it
// off the event loop, so only the call that waits for it waits. Were the store to fsync on the
// event loop (fsyncSync), the stand-in would hold the whole process for a second, and the order
// of events below would be another. No time is measured: the test asserts the order of events.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { TaskTools } from '@raider/todo-tools';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closedAfter, tempDir } from '../test/cleanup.js';
import { openList } from './index.js';

// fsync in both forms: spies over the real functions (the callback form a spy of its own).
vi.mock('node:fs', async (importOriginal) =>
  (await import('../test/spied-fs.js')).spiedFs(await importOriginal(), ['fsync', 'fsyncSync']),
);

const realFsync = vi.mocked(fs.fsync).getMockImplementation() as typeof fs.fsync;
const realFsyncSync = vi.mocked(fs.fsyncSync).getMockImplementation() as typeof fs.fsyncSync;

/** The slow disk's state: armed for the next fsync, which tells it began and waits until let go. */
let armed = false;
let began: () => void = () => {};
let released: Promise<void> = Promise.resolve();
let letGoNow: () => void = () => {};

/** Makes the next fsync, in either form, the slow one: `reached` once it began, `letGo()` lets it end. */
function hold(): { reached: Promise<void>; letGo: () => void } {
  armed = true;
  released = new Promise<void>((resolve) => {
    letGoNow = resolve;
  });
  const reached = new Promise<void>((resolve) => {
    began = resolve;
  });
  return { reached, letGo: () => letGoNow() };
}

beforeEach(() => {
  vi.mocked(fs.fsync).mockImplementation(((fd: number, callback: fs.NoParamCallback) => {
    if (!armed) return realFsync(fd, callback);
    armed = false;
    began();
    // The disk answers once let go; meanwhile the event loop is free.
    void released.then(() => realFsync(fd, callback));
  }) as typeof fs.fsync);
  vi.mocked(fs.fsyncSync).mockImplementation((fd) => {
    if (armed) {
      armed = false;
      began();
      // The same disk under a synchronous call: the whole process waits a second.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
    realFsyncSync(fd);
  });
});
afterEach(() => {
  armed = false;
  letGoNow();
});

/** A TaskTools on list `id` of `dir`, with a folder of its own, as each conversation of a server has. */
function toolsOn(dir: string, id: string): TaskTools {
  return new TaskTools({ store: closedAfter(openList(dir, id)).tasks });
}

/** Resolves once a timer set now has fired: the event loop turned. */
const timerFired = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe('a write that waits for a slow disk', () => {
  it("holds only its own call: another list's create is answered and timers fire meanwhile", async () => {
    const dir = tempDir();
    const alpha = toolsOn(dir, 'alpha');
    const beta = toolsOn(dir, 'beta');
    await beta.createTask({ subject: 'Beta first', description: '' });
    const events: string[] = [];
    const disk = hold();
    const alphaAnswer = alpha.createTask({ subject: 'Alpha', description: '' }).then((answer) => {
      events.push('alpha answered');
      return answer;
    });
    await disk.reached;
    events.push('alpha is waiting for the disk');
    const betaAnswer = await beta.createTask({ subject: 'Beta second', description: '' });
    events.push('beta answered');
    await timerFired();
    events.push('a timer fired');
    expect(betaAnswer.text).toBe('Task #2 created successfully: Beta second');
    expect(events).toEqual(['alpha is waiting for the disk', 'beta answered', 'a timer fired']);
    disk.letGo();
    expect((await alphaAnswer).text).toBe('Task #1 created successfully: Alpha');
    expect(events.at(-1)).toBe('alpha answered');
    // Both writes are whole and durable on disk.
    expect(JSON.parse(fs.readFileSync(join(dir, 'alpha', '1.json'), 'utf8')).subject).toBe('Alpha');
    expect(JSON.parse(fs.readFileSync(join(dir, 'beta', '2.json'), 'utf8')).subject).toBe('Beta second');
  });

  it('holds no read of the same list: another holder reads it while the write waits, then sees it', async () => {
    const dir = tempDir();
    const writer = toolsOn(dir, 'team');
    const reader = toolsOn(dir, 'team');
    await writer.createTask({ subject: 'Kept', description: '' });
    await reader.syncTasks();
    const events: string[] = [];
    const disk = hold();
    const written = writer.updateTask({ taskId: '1', subject: 'Changed' }).then((answer) => {
      events.push('the writer answered');
      return answer;
    });
    await disk.reached;
    events.push('the writer is waiting for the disk');
    // The list lock is the writer's, but a read takes none: it is answered with the list as it was.
    await reader.syncTasks();
    events.push('the reader read the list');
    expect(reader.listTasks()).toBe('#1 [pending] Kept');
    expect(events).toEqual(['the writer is waiting for the disk', 'the reader read the list']);
    disk.letGo();
    expect((await written).text).toBe('Updated task #1 subject');
    expect(events.at(-1)).toBe('the writer answered');
    await reader.syncTasks();
    expect(reader.listTasks()).toBe('#1 [pending] Changed');
  });

  it("holds only its own send: another list's inbox is sent to and taken from meanwhile", async () => {
    const dir = tempDir();
    const alpha = closedAfter(openList(dir, 'alpha')).messages;
    const beta = closedAfter(openList(dir, 'beta')).messages;
    await beta.send({ to: 'bob', text: 'first', notification: false });
    const events: string[] = [];
    const disk = hold();
    const sent = alpha.send({ to: 'ann', text: 'slow', notification: false }).then((message) => {
      events.push('alpha sent');
      return message;
    });
    await disk.reached;
    events.push('alpha is waiting for the disk');
    await beta.send({ to: 'bob', text: 'second', notification: false });
    const delivery = await beta.take('bob');
    events.push('beta taken');
    expect(delivery.messages.map((message) => message.text)).toEqual(['first', 'second']);
    await delivery.done();
    expect(events).toEqual(['alpha is waiting for the disk', 'beta taken']);
    disk.letGo();
    expect((await sent).text).toBe('slow');
    expect((await alpha.peek('ann')).map((message) => message.text)).toEqual(['slow']);
  });
});
