// The waiting of an asker and its progress, without an SDK: a fake call and fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { askWhileWaiting, keepAlive, thrownOutcome, WAITING_MESSAGE } from './asking.js';
import { AskError } from './errors.js';

const DECIDE = 'Decide for yourself, go on, and say in your reply what you assumed.';
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('keepAlive', () => {
  it('sends increasing progress until stopped', () => {
    const sent: number[] = [];
    const stop = keepAlive(async (progress, message) => {
      expect(message).toBe(WAITING_MESSAGE);
      sent.push(progress);
    }, 10);
    vi.advanceTimersByTime(35);
    stop();
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([1, 2, 3]);
  });

  it('stops when the signal aborts or the bound passes, and sends nothing without a token', () => {
    const sent: number[] = [];
    const controller = new AbortController();
    keepAlive(async (progress) => void sent.push(progress), 10, { signal: controller.signal });
    vi.advanceTimersByTime(25);
    controller.abort();
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([1, 2]);
    const bounded: number[] = [];
    keepAlive(async (progress) => void bounded.push(progress), 10, { untilMs: 45 });
    vi.advanceTimersByTime(200);
    expect(bounded).toEqual([1, 2, 3, 4]);
    expect(() => keepAlive(undefined, 10)()).not.toThrow();
  });

  it('a failed send is no failure', async () => {
    const stop = keepAlive(() => Promise.reject(new Error('closed')), 10);
    vi.advanceTimersByTime(30);
    stop();
    await vi.runAllTimersAsync();
  });
});

describe('askWhileWaiting', () => {
  const call = (signal = new AbortController().signal) => ({ signal, requestId: 1, sendProgress: undefined });
  const options = { timeoutMs: 100, progressIntervalMs: 10 };

  it('the call cancelled: withdrawn', async () => {
    const controller = new AbortController();
    const pending = askWhileWaiting(
      () => new Promise(() => {}),
      call(controller.signal),
      options,
      async () => ({ content: [] }),
    );
    controller.abort();
    expect(await pending).toEqual({
      content: [{ type: 'text', text: 'The question was withdrawn because the tool call was cancelled.' }],
      isError: true,
    });
  });

  it('an AskError of another copy of the package is still its outcome', () => {
    const foreign = Object.assign(new Error('declined'), {
      code: 'declined',
      [Symbol.for('@raider/ask-tools/error')]: true,
    });
    expect(thrownOutcome(foreign, 1000)).toEqual({
      content: [{ type: 'text', text: `The user declined to answer the question. ${DECIDE}` }],
      isError: true,
    });
    expect(thrownOutcome(new AskError('timeout'), 90_000).content[0]?.text).toBe(
      `The question timed out: no answer came within 90 seconds. ${DECIDE}`,
    );
  });
});
