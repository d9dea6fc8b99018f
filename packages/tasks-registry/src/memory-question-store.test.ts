import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeQuestionStoreConformance } from './conformance.js';
import { QuestionLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
import { memoryQuestionStore } from './memory-question-store.js';
import type { OutgoingQuestion, QuestionStore } from './question-store.js';

// The memory store is shared by whoever holds it in the process: `other` is the same store.
describeQuestionStoreConformance('memoryQuestionStore', ({ limits }) => ({ store: memoryQuestionStore({ limits }) }), {
  describe,
  it,
  expect,
});

const START = Date.UTC(2026, 11, 1, 10, 0, 0);

/** A clock the test moves by hand. */
function manualClock(start = START) {
  const clock = { time: start, now: () => clock.time };
  return clock;
}

/** A question of `asker` expiring `inMs` after START. */
const question = (asker: string, text: string, inMs = 60_000): OutgoingQuestion => ({
  asker,
  question: text,
  options: [],
  expiresAt: START + inMs,
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Resolves after the microtasks and timers queued so far have run. */
const settle = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error `call` rejects with (a rejection, never a throw at once). */
async function rejection(call: () => Promise<unknown>): Promise<Error> {
  const answer = call();
  return answer.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );
}

describe('memoryQuestionStore', () => {
  it('numbers its questions ask_1, ask_2, ... with askedAt from its clock, frozen, keeping only the contract fields', async () => {
    const clock = manualClock();
    const store = memoryQuestionStore({ now: clock.now });
    const options = ['yes', 'no'];
    const first = await store.ask({ ...question('bob', 'Ship it?'), options, extra: 'dropped' } as OutgoingQuestion);
    options.push('later');
    clock.time += 5;
    const second = await store.ask(question('alice', 'And this?'));
    expect(first).toEqual({
      id: 'ask_1',
      asker: 'bob',
      question: 'Ship it?',
      options: ['yes', 'no'],
      askedAt: START,
      expiresAt: START + 60_000,
      state: 'open',
    });
    expect(Object.keys(first)).toEqual(['id', 'asker', 'question', 'options', 'askedAt', 'expiresAt', 'state']);
    expect(second).toMatchObject({ id: 'ask_2', askedAt: START + 5 });
    expect(Object.isFrozen(first) && Object.isFrozen(first.options)).toBe(true);
  });

  it('is a plain object of five functions, each of which works handed on alone', async () => {
    const store = memoryQuestionStore();
    expect(Object.keys(store)).toEqual(['ask', 'get', 'open', 'settle', 'watch']);
    const { ask, get, open, settle: settleIt, watch } = store;
    let heard = 0;
    const stop = watch(() => {
      heard += 1;
    });
    const asked = await ask({ ...question('bob', 'q'), expiresAt: Date.now() + 60_000 });
    expect(await open()).toEqual([asked]);
    expect(await settleIt(asked.id, { state: 'withdrawn' })).toMatchObject({ settled: { state: 'withdrawn' } });
    expect((await get(asked.id))?.state).toBe('withdrawn');
    await settle();
    stop();
    expect(heard).toBe(2);
  });

  it("expires a question at its expiresAt on the store's clock: no settledAt, and a settle gets already", async () => {
    const clock = manualClock();
    const store = memoryQuestionStore({ now: clock.now });
    const asked = await store.ask(question('bob', 'q', 1_000));
    clock.time += 999;
    expect((await store.get(asked.id))?.state).toBe('open');
    clock.time += 1;
    const expired = await store.get(asked.id);
    expect(expired).toEqual({ ...asked, state: 'expired' });
    expect(await store.open()).toEqual([]);
    expect(await store.settle(asked.id, { state: 'answered', answer: 'late' })).toEqual({ already: expired });
  });

  it('drops a settled question keepSettledMs after settledAt, an expired one that long after expiresAt; ids go on', async () => {
    const clock = manualClock();
    const store = memoryQuestionStore({ now: clock.now, limits: { keepSettledMs: 1_000 } });
    const settled = await store.ask(question('bob', 'a'));
    const expiring = await store.ask(question('bob', 'b', 500));
    await store.settle(settled.id, { state: 'answered', answer: null, by: 'ana' });
    clock.time += 999;
    expect(await store.get(settled.id)).toMatchObject({ state: 'answered', answer: null, settledBy: 'ana' });
    expect((await store.get(expiring.id))?.state).toBe('expired');
    clock.time += 1;
    expect(await store.get(settled.id)).toBeUndefined();
    expect(await store.settle(settled.id, { state: 'withdrawn' })).toBeUndefined();
    expect((await store.get(expiring.id))?.state).toBe('expired');
    clock.time += 500;
    expect(await store.get(expiring.id)).toBeUndefined();
    expect((await store.ask(question('bob', 'c', 60_000))).id).toBe('ask_3');
  });

  it('counts only the open questions against maxOpenQuestions: an expired one makes room, a refusal changes nothing', async () => {
    const clock = manualClock();
    const store = memoryQuestionStore({ now: clock.now, limits: { maxOpenQuestions: 2 } });
    await store.ask(question('bob', 'a', 100));
    const lasting = await store.ask(question('bob', 'b'));
    const refused = await rejection(() => store.ask(question('bob', 'c')));
    expect(refused).toBeInstanceOf(QuestionLimitError);
    expect(refused.message).toBe(
      'ask: the list holds 2 open questions, the most allowed; it takes none until one is settled or expires',
    );
    clock.time += 100;
    const third = await store.ask(question('bob', 'c'));
    expect(third.id).toBe('ask_3');
    expect(await store.open()).toEqual([lasting, third]);
  });

  it('wakes its listeners in a later microtask after an ask and a settle that won, not after a refusal or an already', async () => {
    const store = memoryQuestionStore();
    // A listener's error is thrown again from a setTimeout of 0: hold those handlers to look at them.
    const rethrown: (() => void)[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, delay?: number) => {
      if (delay === 0) {
        rethrown.push(handler);
        return 0;
      }
      return realSetTimeout(handler, delay);
    }) as typeof setTimeout);
    const heard: string[] = [];
    store.watch(() => {
      throw new Error('a listener that throws');
    });
    store.watch(() => heard.push('b'));
    const asking = store.ask({ ...question('bob', 'q'), expiresAt: Date.now() + 60_000 });
    expect(heard, 'not within the ask').toEqual([]);
    const asked = await asking;
    expect(heard).toEqual(['b']);
    await store.settle(asked.id, { state: 'declined', reason: 'no' });
    await store.settle(asked.id, { state: 'declined', reason: 'again' });
    await rejection(() => store.ask(question('', 'bad')));
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(heard).toEqual(['b', 'b']);
    expect(rethrown).toHaveLength(2);
    expect(rethrown[0]).toThrow('a listener that throws');
  });
});

describe("memoryQuestionStore's refusals", () => {
  const store: QuestionStore = memoryQuestionStore({ now: () => START, limits: { maxTextLength: 10, maxOptions: 2 } });

  it('say what was wrong, what was expected and what was received, without echoing a long text', async () => {
    const cases: [unknown, new (...args: never[]) => Error, string][] = [
      [
        'hello',
        RegistryArgumentError,
        'ask: expected a question { asker, question, options, expiresAt }, received "hello"',
      ],
      [
        question('a'.repeat(201), 'q'),
        RegistryArgumentError,
        "ask: asker: expected an agent's name (a non-empty string of at most 200 characters), received a string of 201 characters",
      ],
      [
        question('bob', 'q'.repeat(5_000)),
        RegistryArgumentError,
        'ask: question: expected at most 10 characters, received a string of 5000',
      ],
      [
        { ...question('bob', 'q'), options: ['a', 'b', 'c'] },
        RegistryArgumentError,
        'ask: options: expected at most 2 options, received 3',
      ],
      [
        { ...question('bob', 'q'), options: ['a', 7] },
        RegistryArgumentError,
        'ask: options[1]: expected a string, received number',
      ],
      [
        { ...question('bob', 'q'), expiresAt: '1h' },
        RegistryArgumentError,
        'ask: expiresAt: expected a time in ms since the epoch, received "1h"',
      ],
      [
        question('bob', 'q', 0),
        RegistryRangeError,
        `ask: expiresAt: expected a time after now (${START}), received ${START}`,
      ],
    ];
    for (const [given, ErrorClass, text] of cases) {
      const error = await rejection(() => store.ask(given as OutgoingQuestion));
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error.message).toBe(text);
    }
    expect(await store.open()).toEqual([]);
  });

  it('refuse a bad id or outcome, and a listener that is not a function at once', async () => {
    const asked = await store.ask(question('bob', 'q'));
    expect((await rejection(() => store.get(7 as never))).message).toBe(
      "get: id: expected a question's id (a string), received number",
    );
    expect((await rejection(() => store.settle(asked.id, { state: 'expired' } as never))).message).toBe(
      'settle: state: expected "answered", "declined" or "withdrawn", received "expired"',
    );
    expect((await rejection(() => store.settle(asked.id, { state: 'answered' } as never))).message).toBe(
      'settle: answer: expected a string or null (a blank answer), received nothing',
    );
    expect((await rejection(() => store.settle(asked.id, { state: 'answered', answer: 'x'.repeat(11) }))).message).toBe(
      'settle: answer: expected at most 10 characters, received a string of 11',
    );
    expect(() => store.watch(5 as never)).toThrow(
      new RegistryArgumentError('watch: listener: expected a function, received number'),
    );
    expect((await store.get(asked.id))?.state).toBe('open');
  });

  it('check its options: an object, limits that are positive, a clock that is a function', () => {
    expect(() => memoryQuestionStore(5 as never)).toThrow(RegistryArgumentError);
    expect(() => memoryQuestionStore({ now: 'now' as never })).toThrow(
      'memoryQuestionStore: now: expected a function or nothing, received "now"',
    );
    expect(() => memoryQuestionStore({ limits: { maxOptions: 0 } })).toThrow(
      new RegistryRangeError('memoryQuestionStore: limits.maxOptions: expected a positive integer, received 0'),
    );
    expect(() => memoryQuestionStore({ limits: { keepSettledMs: '1h' as never } })).toThrow(RegistryArgumentError);
    expect(() => memoryQuestionStore({ limits: { maxOpenQuestions: 1.5 } })).toThrow(RegistryRangeError);
    expect(() => memoryQuestionStore({ limits: { maxTextLength: undefined } })).not.toThrow();
  });
});
