/** The suite's group of answerers an application gives ask_user. */
import { describe, expect, it, vi } from 'vitest';
import { AskError } from '../../core/errors.js';
import { UNAVAILABLE } from '../../core/outcomes.js';
import type { Asker } from '../../core/types.js';
import { DECIDE, once, type Suite, textOf } from './suite-context.js';

/** Answerers of an application's own: asked on every call, waited for, their outcomes. */
export function answerers<Server>(suite: Suite<Server>): void {
  describe(`answerers, ${suite.harness.name}`, () => {
    askedOnEveryCall(suite);
    progressAndThrows(suite);
  });
}

/** Without an answerer every call is refused; the answerer is asked on every call; the timeout holds. */
function askedOnEveryCall<Server>({ entry, mounted }: Suite<Server>): void {
  it('no answerer and a client that cannot elicit: every call is refused', async () => {
    const { call } = await mounted((server) => new entry.AskTools().register(server));
    expect(await call('ask_user', { question: 'q' })).toEqual({
      content: [{ type: 'text', text: UNAVAILABLE }],
      isError: true,
    });
    const ask = new entry.AskTools();
    expect(ask.server).toBe(ask.server);
  });

  it('the answerer is asked on every call: one registered after mounting is used', async () => {
    let asker: Asker | undefined;
    const answerer = vi.fn(() => asker);
    const { call } = await mounted((server) => new entry.AskTools({ answerer }).register(server));
    expect(textOf(await call('ask_user', { question: 'q' }))).toBe(UNAVAILABLE);
    asker = async (question, options) => `${question} -> ${options.join('/') || 'free'}`;
    expect(textOf(await call('ask_user', { question: 'q', options: ['a', 'b'] }))).toBe('q -> a/b');
    asker = async () => undefined;
    expect(textOf(await call('ask_user', { question: 'q' }))).toBe(`The user gave no answer. ${DECIDE}`);
    asker = async () => '';
    expect(textOf(await call('ask_user', { question: 'q' }))).toBe(
      `The user's answer was empty, which is not an answer. ${DECIDE}`,
    );
    asker = async () => {
      throw new Error('terminal went away');
    };
    expect(textOf(await call('ask_user', { question: 'q' }))).toBe(
      `The question could not be put to the user: terminal went away. ${DECIDE}`,
    );
    expect(answerer).toHaveBeenCalledTimes(5);
  });

  it('an asker that ignores the signal still cannot block past the timeout', async () => {
    const { call } = await mounted((server) =>
      new entry.AskTools({ answerer: () => () => new Promise(() => {}), timeoutMs: 100 }).register(server),
    );
    expect(textOf(await call('ask_user', { question: 'q' }))).toBe(
      `The question timed out: no answer came within 100 ms. ${DECIDE}`,
    );
  });
}

/** An answerer's asker keeps the call alive with progress; what an answerer throws becomes its result. */
function progressAndThrows<Server>({ entry, mounted }: Suite<Server>): void {
  it('an answerer’s asker keeps the call alive with progress while it waits', async () => {
    const progress: number[] = [];
    const asker: Asker = () => once(() => progress.length >= 2).then(() => 'ok');
    const { call } = await mounted((server) =>
      new entry.AskTools({ answerer: () => asker, progressIntervalMs: 30 }).register(server),
    );
    expect(textOf(await call('ask_user', { question: 'q' }, { onprogress: (p) => progress.push(p) }))).toBe('ok');
    expect(progress.slice(0, 2)).toEqual([1, 2]);
  });

  it.each([
    [
      new AskError('aborted', 'the server is shutting down'),
      `The question was withdrawn: the server is shutting down. ${DECIDE}`,
    ],
    [new AskError('declined'), `The user declined to answer the question. ${DECIDE}`],
    [new AskError('disconnected'), `The client disconnected before the user answered. ${DECIDE}`],
  ])('an answerer that throws %s', async (error, text) => {
    const answerer = () => async () => {
      throw error;
    };
    const { call } = await mounted((server) => new entry.AskTools({ answerer }).register(server));
    expect(await call('ask_user', { question: 'q' })).toEqual({ content: [{ type: 'text', text }], isError: true });
  });
}
