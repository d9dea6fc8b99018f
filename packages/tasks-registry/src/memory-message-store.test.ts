import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeMessageStoreConformance } from './conformance.js';
import { MessageLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
import { memoryMessageStore } from './memory-message-store.js';
import type { OutgoingMessage } from './message-store.js';

// The memory store is shared by whoever holds it in the process: `other` is the same store.
describeMessageStoreConformance('memoryMessageStore', ({ limits }) => ({ store: memoryMessageStore({ limits }) }), {
  describe,
  it,
  expect,
});

const plain = (to: string, text: string): OutgoingMessage => ({ to, text, notification: false });

/** A clock the test moves by hand. */
function manualClock(start = Date.UTC(2026, 11, 1, 10, 0, 0)) {
  const clock = { time: start, now: () => clock.time };
  return clock;
}

/** Resolves after the microtasks and timers queued so far have run. */
const settle = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('memoryMessageStore', () => {
  it('numbers its messages "1", "2", ... across the inboxes of the list, with sentAt from its clock', async () => {
    const clock = manualClock();
    const store = memoryMessageStore({ now: clock.now });
    const first = await store.send(plain('alice', 'a'));
    clock.time += 5;
    const second = await store.send({ to: 'bob', from: 'alice', text: 'b', notification: false });
    expect(first).toEqual({ id: '1', to: 'alice', text: 'a', notification: false, sentAt: clock.time - 5 });
    expect(second).toEqual({ id: '2', to: 'bob', from: 'alice', text: 'b', notification: false, sentAt: clock.time });
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('is a plain object of four functions, each of which works handed on alone', async () => {
    const store = memoryMessageStore();
    expect(Object.keys(store)).toEqual(['send', 'take', 'peek', 'watch']);
    const { send, take, peek, watch } = store;
    let woken = 0;
    const stop = watch('bob', () => {
      woken += 1;
    });
    await send(plain('bob', 'hi'));
    expect((await peek('bob')).map((message) => message.text)).toEqual(['hi']);
    const delivery = await take('bob');
    await delivery.done();
    await settle();
    stop();
    expect(woken).toBe(1);
    expect(await peek('bob')).toEqual([]);
  });

  it('keeps only the known fields of a message, with absent ones left out', async () => {
    const store = memoryMessageStore();
    const sent = { ...plain('bob', 'hi'), about: undefined, extra: 'dropped' } as OutgoingMessage;
    const stored = await store.send(sent);
    expect(Object.keys(stored)).toEqual(['id', 'to', 'text', 'notification', 'sentAt']);
  });

  it("a lease holds for leaseMs on the store's clock, then the next take gets the messages again", async () => {
    const clock = manualClock();
    const store = memoryMessageStore({ now: clock.now });
    await store.send(plain('alice', 'm1'));
    const lost = await store.take('alice', { leaseMs: 1_000 });
    clock.time += 999;
    expect((await store.take('alice')).messages).toEqual([]);
    clock.time += 1;
    const again = await store.take('alice');
    expect(again.messages).toEqual(lost.messages);
    // The first taker's done does not remove what another take holds now.
    await lost.done();
    clock.time += 60_000;
    expect((await store.take('alice')).messages).toEqual(lost.messages);
  });

  it('done after the lease lapsed, with nobody having taken them again, still removes them', async () => {
    const clock = manualClock();
    const store = memoryMessageStore({ now: clock.now });
    await store.send(plain('alice', 'm1'));
    const late = await store.take('alice', { leaseMs: 1_000 });
    clock.time += 5_000;
    await late.done();
    expect(await store.peek('alice')).toEqual([]);
  });

  it('drops a message older than maxAgeMs (kept at exactly maxAgeMs), also a reserved one once its lease ended', async () => {
    const clock = manualClock();
    const store = memoryMessageStore({ now: clock.now, limits: { maxAgeMs: 10_000 } });
    await store.send(plain('alice', 'reserved'));
    await store.take('alice', { leaseMs: 20_000 });
    const waiting = await store.send(plain('alice', 'waiting'));
    clock.time += 10_000;
    expect(await store.peek('alice')).toEqual([waiting]);
    clock.time += 1;
    expect(await store.peek('alice')).toEqual([]);
    clock.time += 20_000;
    expect((await store.take('alice')).messages).toEqual([]);
  });

  it('a full inbox makes room for a send by dropping what has expired', async () => {
    const clock = manualClock();
    const store = memoryMessageStore({ now: clock.now, limits: { maxInboxMessages: 2, maxAgeMs: 1_000 } });
    await store.send(plain('alice', 'old'));
    clock.time += 600;
    const newer = await store.send(plain('alice', 'newer'));
    await expect(store.send(plain('alice', 'refused'))).rejects.toThrow(MessageLimitError);
    clock.time += 401;
    const fits = await store.send(plain('alice', 'fits'));
    expect(await store.peek('alice')).toEqual([newer, fits]);
  });

  it('says what was wrong, expected and received, never echoing a long value', async () => {
    const store = memoryMessageStore({ limits: { maxInboxMessages: 2 } });
    await expect(store.send(plain('alice', 'x'.repeat(70_001)))).rejects.toThrow(
      new MessageLimitError('send: text: expected at most 64000 characters, received 70001'),
    );
    await store.send(plain('alice', 'one'));
    await store.send(plain('alice', 'two'));
    await expect(store.send(plain('alice', 'three'))).rejects.toThrow(
      new MessageLimitError(
        'send: the inbox of "alice" holds 2 messages, the most allowed; it takes none until some are taken',
      ),
    );
    await expect(store.send(plain('n'.repeat(201), 'x'))).rejects.toThrow(
      new RegistryArgumentError(
        "send: to: expected an agent's name (a non-empty string of at most 200 characters), received a string of 201 characters",
      ),
    );
    await expect(store.send({ ...plain('bob', 'x'), from: '' })).rejects.toThrow(
      new RegistryArgumentError(
        `send: from: expected an agent's name (a non-empty string of at most 200 characters), received ""`,
      ),
    );
    await expect(store.send({ to: 'bob', text: 5 } as never)).rejects.toThrow(
      new RegistryArgumentError('send: text: expected a string, received number'),
    );
    await expect(store.send({ to: 'bob', text: 'x' } as never)).rejects.toThrow(
      new RegistryArgumentError('send: notification: expected true or false, received nothing'),
    );
    await expect(store.send({ ...plain('bob', 'x'), label: null } as never)).rejects.toThrow(
      new RegistryArgumentError('send: label: expected a string or nothing, received null'),
    );
    await expect(store.send([] as never)).rejects.toThrow(
      new RegistryArgumentError('send: expected a message { to, text, notification, ... }, received an array'),
    );
    await expect(store.take('bob', { leaseMs: -5 })).rejects.toThrow(
      new RegistryRangeError('take: leaseMs: expected a positive number, received -5'),
    );
    await expect(store.take('bob', { max: 'all' as never })).rejects.toThrow(
      new RegistryArgumentError('take: max: expected a positive integer, received "all"'),
    );
    expect(() => store.watch('bob', undefined as never)).toThrow(
      new RegistryArgumentError('watch: onMessage: expected a function, received nothing'),
    );
  });

  it('checks its options', () => {
    expect(() => memoryMessageStore({ limits: { maxInboxMessages: 0 } })).toThrow(
      new RegistryRangeError('memoryMessageStore: limits.maxInboxMessages: expected a positive integer, received 0'),
    );
    expect(() => memoryMessageStore({ limits: { maxAgeMs: Number.POSITIVE_INFINITY } })).toThrow(RegistryRangeError);
    expect(() => memoryMessageStore({ limits: 'small' as never })).toThrow(
      new RegistryArgumentError('memoryMessageStore: limits: expected an object or nothing, received "small"'),
    );
    expect(() => memoryMessageStore({ now: 5 as never })).toThrow(
      new RegistryArgumentError('memoryMessageStore: now: expected a function or nothing, received number'),
    );
  });

  describe('watch', () => {
    it('calls back in a later microtask, not inside the send; one function watched twice is called twice', async () => {
      const store = memoryMessageStore();
      const onMessage = vi.fn();
      store.watch('bob', onMessage);
      const stop = store.watch('bob', onMessage);
      const sent = store.send(plain('bob', 'hi'));
      expect(onMessage).not.toHaveBeenCalled();
      await sent;
      await settle();
      expect(onMessage).toHaveBeenCalledTimes(2);
      stop();
      stop();
      await store.send(plain('bob', 'again'));
      await settle();
      expect(onMessage).toHaveBeenCalledTimes(3);
    });

    it("is not called for another agent's messages", async () => {
      const store = memoryMessageStore();
      const onMessage = vi.fn();
      store.watch('bob', onMessage);
      await store.send(plain('alice', 'hi'));
      await settle();
      expect(onMessage).not.toHaveBeenCalled();
    });

    it('calls back when a release gives messages back, and not for done or an empty release', async () => {
      const store = memoryMessageStore();
      await store.send(plain('bob', 'm1'));
      await store.send(plain('bob', 'm2'));
      const onMessage = vi.fn();
      store.watch('bob', onMessage);
      const first = await store.take('bob', { max: 1 });
      await first.done();
      await (await store.take('nobody')).release();
      await settle();
      expect(onMessage).not.toHaveBeenCalled();
      await (await store.take('bob')).release();
      await settle();
      expect(onMessage).toHaveBeenCalledTimes(1);
    });

    it('calls back when a lease lapses with its messages still held', async () => {
      const store = memoryMessageStore();
      await store.send(plain('bob', 'm1'));
      const onMessage = vi.fn();
      store.watch('bob', onMessage);
      await store.take('bob', { leaseMs: 20 });
      await expect.poll(() => onMessage.mock.calls.length, { timeout: 10_000 }).toBe(1);
      // One marked done before its lease lapses wakes nobody.
      await store.send(plain('carol', 'c1'));
      const carol = vi.fn();
      store.watch('carol', carol);
      await (await store.take('carol', { leaseMs: 20 })).done();
      await settle(100);
      expect(carol).not.toHaveBeenCalled();
    });

    it('a watcher that throws fails neither the send nor the other watchers; its error is thrown again later', async () => {
      const store = memoryMessageStore();
      const rethrown: (() => void)[] = [];
      const realSetTimeout = globalThis.setTimeout;
      vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, delay?: number) => {
        if (delay === 0) {
          rethrown.push(handler);
          return 0;
        }
        return realSetTimeout(handler, delay);
      }) as typeof setTimeout);
      store.watch('bob', () => {
        throw new Error('watcher bug');
      });
      const after = vi.fn();
      store.watch('bob', after);
      await expect(store.send(plain('bob', 'hi'))).resolves.toMatchObject({ text: 'hi' });
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      expect(after).toHaveBeenCalledTimes(1);
      expect(rethrown).toHaveLength(1);
      expect(rethrown[0]).toThrow('watcher bug');
    });
  });
});
