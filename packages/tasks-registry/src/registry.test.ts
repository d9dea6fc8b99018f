import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RegistryArgumentError, RegistryRangeError } from './errors.js';
import { TaskRegistry, type TaskRegistryEvents } from './index.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('ids', () => {
  it('count per kind: agent_1, agent_2, bash_1', () => {
    const tasks = new TaskRegistry();
    expect(tasks.nextId('agent')).toBe('agent_1');
    tasks.add({ id: 'agent_1', kind: 'agent' });
    expect(tasks.nextId('agent')).toBe('agent_2');
    expect(tasks.nextId('bash')).toBe('bash_1');
  });

  it('an explicit KIND_N id moves the counter to at least N', () => {
    const tasks = new TaskRegistry();
    tasks.add({ id: 'agent_7', kind: 'agent' });
    expect(tasks.nextId('agent')).toBe('agent_8');
    tasks.add({ id: 'agent_3', kind: 'agent' });
    expect(tasks.nextId('agent')).toBe('agent_9');
  });

  it('skips ids the registry has and those taken names', () => {
    const tasks = new TaskRegistry();
    tasks.add({ id: 'x', kind: 'agent' });
    tasks.add({ id: 'agent_1', kind: 'bash' });
    const seen = new Set(['agent_2', 'agent_3']);
    expect(tasks.nextId('agent', { taken: (id) => seen.has(id) })).toBe('agent_4');
  });

  it('refuses a kind that is not a non-empty string', () => {
    const tasks = new TaskRegistry();
    expect(() => tasks.nextId('')).toThrow(
      new RegistryArgumentError('nextId: kind: expected a non-empty string, received ""'),
    );
  });
});

describe('entries', () => {
  it('add registers an entry, running unless given, with the kind’s own fields, and returns it', () => {
    const tasks = new TaskRegistry();
    const stop = () => {};
    const given = {
      id: 'agent_1',
      kind: 'agent',
      recipient: 'main',
      description: 'Find the tests',
      background: true,
      stop,
    };
    const entry = tasks.add(given);
    expect(entry).toEqual({ ...given, status: 'running' });
    expect(tasks.get('agent_1')).toBe(entry);
    expect(tasks.add({ id: 'bash_1', kind: 'bash', status: 'completed' }).status).toBe('completed');
  });

  it('add refuses an id in use, a missing id or kind, and an unknown status, changing nothing', () => {
    const tasks = new TaskRegistry();
    tasks.add({ id: 'agent_1', kind: 'agent', description: 'first' });
    expect(() => tasks.add({ id: 'agent_1', kind: 'agent', description: 'second' })).toThrow(
      new RegistryArgumentError('add: id: expected an id not in use, received "agent_1", which is in use'),
    );
    expect(tasks.get('agent_1')?.description).toBe('first');
    expect(() => tasks.add({ id: 5 as unknown as string, kind: 'agent' })).toThrow(
      'add: id: expected a non-empty string, received number',
    );
    expect(() => tasks.add({ id: 'a_9', kind: '' })).toThrow(TypeError);
    expect(() => tasks.add({ id: 'a_9', kind: 'a', status: 'done' as never })).toThrow(
      new RegistryRangeError('add: status: expected one of running, completed, failed, killed, received "done"'),
    );
    expect(tasks.entries().map((e) => e.id)).toEqual(['agent_1']);
    expect(tasks.nextId('a')).toBe('a_1');
  });

  it('set changes fields of an entry and returns it; nothing for an unknown id', () => {
    const tasks = new TaskRegistry();
    tasks.add({ id: 'agent_1', kind: 'agent', status: 'completed' });
    const entry = tasks.set('agent_1', { status: 'running', recipient: 'main' });
    expect(entry).toMatchObject({ status: 'running', recipient: 'main' });
    expect(tasks.set('agent_9', { status: 'running' })).toBeUndefined();
    expect(() => tasks.set('agent_1', { id: 'other' })).toThrow(TypeError);
    expect(() => tasks.set('agent_1', { status: 'paused' as never })).toThrow(RangeError);
    expect(tasks.get('agent_1')?.status).toBe('running');
  });

  it('entries stay after their run ends; find by id, else the newest entry with that name', () => {
    const tasks = new TaskRegistry();
    tasks.add({ id: 'agent_1', kind: 'agent', name: 'reviewer' });
    tasks.add({ id: 'agent_2', kind: 'agent', name: 'reviewer' });
    tasks.add({ id: 'reviewer', kind: 'bash' });
    tasks.finish('agent_2', 'completed');
    expect(tasks.find('agent_2')?.status).toBe('completed');
    expect(tasks.find('reviewer')?.id).toBe('reviewer');
    const other = new TaskRegistry();
    other.add({ id: 'agent_1', kind: 'agent', name: 'reviewer' });
    other.add({ id: 'agent_2', kind: 'agent', name: 'reviewer' });
    expect(other.find('reviewer')?.id).toBe('agent_2');
    expect(other.find('nobody')).toBeUndefined();
    expect(other.get('nobody')).toBeUndefined();
  });

  it('entries filters by field equality, oldest first; booleans compare as true or false', () => {
    const tasks = new TaskRegistry();
    tasks.add({ id: 'agent_1', kind: 'agent', recipient: 'main', background: true });
    tasks.add({ id: 'bash_1', kind: 'bash', recipient: 'main' });
    tasks.add({ id: 'agent_2', kind: 'agent', recipient: 'agent_1' });
    tasks.add({ id: 'agent_3', kind: 'agent', recipient: 'main', background: false });
    expect(tasks.entries().map((e) => e.id)).toEqual(['agent_1', 'bash_1', 'agent_2', 'agent_3']);
    expect(tasks.entries({ kind: 'agent', recipient: 'main' }).map((e) => e.id)).toEqual(['agent_1', 'agent_3']);
    expect(tasks.entries({ background: 1 }).map((e) => e.id)).toEqual(['agent_1']);
    expect(tasks.entries({ background: false }).map((e) => e.id)).toEqual(['bash_1', 'agent_2', 'agent_3']);
    expect(tasks.entries({ background: 0 }).map((e) => e.id)).toEqual(['agent_3']);
    tasks.finish('agent_1', 'completed');
    expect(tasks.running({ recipient: 'main' }).map((e) => e.id)).toEqual(['bash_1', 'agent_3']);
  });

  it('finish sets the status and fields and returns the entry; refuses another status', () => {
    const tasks = new TaskRegistry();
    tasks.add({ id: 'agent_1', kind: 'agent' });
    const entry = tasks.finish('agent_1', 'failed', { report: 'it broke', usage: { tool_uses: 2 } });
    expect(entry).toMatchObject({ status: 'failed', report: 'it broke', usage: { tool_uses: 2 } });
    expect(() => tasks.finish('agent_1', 'running' as never)).toThrow(
      new RegistryRangeError('finish: status: expected one of completed, failed, killed, received "running"'),
    );
    expect(tasks.get('agent_1')?.status).toBe('failed');
    expect(tasks.finish('agent_9', 'completed')).toBeUndefined();
  });
});

describe('stop', () => {
  it('asks a running entry to end through its stop and says whether there was one to ask', () => {
    const tasks = new TaskRegistry();
    const stop = vi.fn();
    tasks.add({ id: 'agent_1', kind: 'agent', stop });
    tasks.add({ id: 'agent_2', kind: 'agent' });
    tasks.add({ id: 'agent_3', kind: 'agent', stop, status: 'completed' });
    expect(tasks.stop('agent_1')).toBe(true);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(tasks.stop('agent_2')).toBe(false);
    expect(tasks.stop('agent_3')).toBe(false);
    expect(tasks.stop('agent_9')).toBe(false);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('quiet marks the entry so its end notifies nobody', () => {
    const tasks = new TaskRegistry();
    tasks.add({ id: 'agent_1', kind: 'agent', stop: () => {} });
    expect(tasks.stop('agent_1', { quiet: true })).toBe(true);
    expect(tasks.get('agent_1')?.quiet).toBe(true);
    tasks.finish('agent_1', 'killed');
    expect(tasks.notify('main', 'agent_1 ended', { id: 'agent_1' })).toBe(false);
    expect(tasks.pending('main')).toBe(0);
    expect(tasks.notify('main', 'other ended', { id: 'agent_2' })).toBe(true);
  });

  it('stopAll stops every running entry and returns the promises of their runs', async () => {
    const tasks = new TaskRegistry();
    const runs: (() => void)[] = [];
    for (const id of ['agent_1', 'agent_2']) {
      let end = () => {};
      const promise = new Promise<string>((resolve) => (end = () => resolve(id)));
      runs.push(end);
      tasks.add({ id, kind: 'agent', promise, stop: () => end() });
    }
    tasks.add({ id: 'agent_3', kind: 'agent', status: 'completed', promise: Promise.resolve('old') });
    const promises = tasks.stopAll();
    expect(promises).toHaveLength(2);
    expect(await Promise.all(promises)).toEqual(['agent_1', 'agent_2']);
  });

  it('stopAll asks every entry even when a stop throws, then reports the errors together', () => {
    const tasks = new TaskRegistry();
    const second = vi.fn();
    tasks.add({
      id: 'agent_1',
      kind: 'agent',
      stop: () => {
        throw new Error('boom');
      },
    });
    tasks.add({ id: 'agent_2', kind: 'agent', stop: second });
    expect(() => tasks.stopAll()).toThrow(AggregateError);
    expect(second).toHaveBeenCalledTimes(1);
  });
});

describe('promises', () => {
  it('a failing run never becomes an unhandled rejection, from add or from set', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const tasks = new TaskRegistry();
      tasks.add({ id: 'agent_1', kind: 'agent', promise: Promise.reject(new Error('run failed')) });
      tasks.add({ id: 'agent_2', kind: 'agent' });
      tasks.set('agent_2', { promise: Promise.reject(new Error('resumed run failed')) });
      let fail: (e: Error) => void = () => {};
      tasks.add({ id: 'agent_3', kind: 'agent', promise: new Promise((_, reject) => (fail = reject)) });
      fail(new Error('later'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('the queue', () => {
  it('per recipient, oldest first: post, notify, pending, peek, take', () => {
    const tasks = new TaskRegistry();
    tasks.post('agent_2', 'Also check the tests.');
    tasks.notify('main', '<task-notification>1</task-notification>', {
      id: 'agent_1',
      label: 'background agent agent_1 finished',
    });
    tasks.post('main', 'hello');
    expect(tasks.pending('main')).toBe(2);
    expect(tasks.pending('agent_2')).toBe(1);
    expect(tasks.pending('nobody')).toBe(0);
    const peeked = tasks.peek('main');
    expect(peeked).toEqual([
      {
        text: '<task-notification>1</task-notification>',
        notification: true,
        id: 'agent_1',
        label: 'background agent agent_1 finished',
      },
      { text: 'hello', notification: false },
    ]);
    peeked.pop();
    expect(tasks.pending('main')).toBe(2);
    expect(tasks.take('main').map((i) => i.text)).toEqual(['<task-notification>1</task-notification>', 'hello']);
    expect(tasks.take('main')).toEqual([]);
    expect(tasks.pending('agent_2')).toBe(1);
  });

  it('takeMessages: consecutive notifications form one message, a plain message is its own, order kept', () => {
    const tasks = new TaskRegistry();
    tasks.notify('main', 'N1', { id: 'agent_1' });
    tasks.notify('main', 'N2', { id: 'agent_2' });
    tasks.post('main', 'P1');
    tasks.post('main', 'P2');
    tasks.notify('main', 'N3');
    const messages = tasks.takeMessages('main');
    expect(messages.map(({ content, notification }) => ({ content, notification }))).toEqual([
      { content: 'N1\nN2', notification: true },
      { content: 'P1', notification: false },
      { content: 'P2', notification: false },
      { content: 'N3', notification: true },
    ]);
    expect(messages[0]?.items.map((i) => i.id)).toEqual(['agent_1', 'agent_2']);
    expect(tasks.pending('main')).toBe(0);
  });

  it('refuses a recipient or text that is not a string, queuing nothing', () => {
    const tasks = new TaskRegistry();
    expect(() => tasks.post(7 as unknown as string, 'x')).toThrow(
      new RegistryArgumentError('post: recipient: expected a non-empty string, received number'),
    );
    expect(() => tasks.notify('main', undefined as unknown as string)).toThrow(
      new RegistryArgumentError('notify: text: expected a string, received nothing'),
    );
    expect(tasks.pending('main')).toBe(0);
  });
});

describe('waitFor', () => {
  it('resolves at once when something already waits', async () => {
    const tasks = new TaskRegistry();
    tasks.post('main', 'x');
    await expect(tasks.waitFor('main')).resolves.toBeUndefined();
  });

  it('wakes waiters through schedule, outside the code that queued the message', async () => {
    const scheduled: (() => void)[] = [];
    const tasks = new TaskRegistry({ schedule: (wake) => scheduled.push(wake) });
    let woken = 0;
    const waits = [tasks.waitFor('main').then(() => woken++), tasks.waitFor('main').then(() => woken++)];
    tasks.post('agent_1', 'not for main');
    expect(scheduled).toHaveLength(0);
    tasks.post('main', 'for main');
    expect(scheduled).toHaveLength(1);
    await Promise.resolve();
    expect(woken).toBe(0);
    scheduled[0]?.();
    await Promise.all(waits);
    expect(woken).toBe(2);
    expect(tasks.waiting('main')).toBe(0);
  });

  it('by default wakes on the next macrotask (fake timers)', async () => {
    vi.useFakeTimers();
    const tasks = new TaskRegistry();
    let woken = false;
    const wait = tasks.waitFor('main').then(() => {
      woken = true;
    });
    tasks.notify('main', 'done');
    await Promise.resolve();
    expect(woken).toBe(false);
    await vi.runAllTimersAsync();
    await wait;
    expect(woken).toBe(true);
  });

  it('with real timers', async () => {
    const tasks = new TaskRegistry();
    setTimeout(() => tasks.post('main', 'late'), 5);
    await tasks.waitFor('main');
    expect(tasks.pending('main')).toBe(1);
  });

  it('discard drops what waits and wakes the waiters', async () => {
    const tasks = new TaskRegistry();
    const wait = tasks.waitFor('agent_1');
    tasks.discard('agent_1');
    await wait;
    tasks.post('agent_1', 'x');
    tasks.discard('agent_1');
    expect(tasks.pending('agent_1')).toBe(0);
  });

  it('an abort rejects with an AbortError and leaves no waiter or listener behind', async () => {
    const tasks = new TaskRegistry();
    const controller = new AbortController();
    const wait = tasks.waitFor('main', { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(tasks.waiting('main')).toBe(1);
    controller.abort();
    await expect(wait).rejects.toMatchObject({ name: 'AbortError' });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(tasks.waiting('main')).toBe(0);
    await expect(tasks.waitFor('main', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(tasks.waiting('main')).toBe(0);
  });

  it('a waiter that is woken removes its abort listener', async () => {
    const tasks = new TaskRegistry();
    const controller = new AbortController();
    const wait = tasks.waitFor('main', { signal: controller.signal });
    tasks.post('main', 'x');
    await wait;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('events', () => {
  it('dispatches added, finished, queued and taken', () => {
    const tasks = new TaskRegistry();
    const seen: [keyof TaskRegistryEvents, unknown][] = [];
    for (const type of ['added', 'finished', 'queued', 'taken'] as const) {
      tasks.on(type, (detail) => seen.push([type, detail]));
    }
    const entry = tasks.add({ id: 'agent_1', kind: 'agent' });
    tasks.finish('agent_1', 'completed');
    tasks.notify('main', 'N', { id: 'agent_1' });
    tasks.take('main');
    tasks.post('main', 'P');
    tasks.discard('main');
    expect(seen).toEqual([
      ['added', { entry }],
      ['finished', { entry }],
      ['queued', { recipient: 'main', item: { text: 'N', notification: true, id: 'agent_1' } }],
      ['taken', { recipient: 'main', items: [{ text: 'N', notification: true, id: 'agent_1' }], discarded: false }],
      ['queued', { recipient: 'main', item: { text: 'P', notification: false } }],
      ['taken', { recipient: 'main', items: [{ text: 'P', notification: false }], discarded: true }],
    ]);
  });

  it('is an EventTarget, and on() returns a function that removes the listener', () => {
    const tasks = new TaskRegistry();
    const listener = vi.fn();
    tasks.addEventListener('queued', listener);
    const off = tasks.on('queued', listener);
    tasks.post('main', 'x');
    expect(listener).toHaveBeenCalledTimes(2);
    off();
    tasks.post('main', 'y');
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
