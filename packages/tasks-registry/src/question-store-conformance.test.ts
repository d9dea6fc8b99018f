// The QuestionStore conformance suite itself: one describe of its tests in a fixed order (the
// groups of question-store-conformance/ in turn), passing the memory store through two handles that
// share it, failing stores that break the contract, and closing each store it opened.
import { describe, expect, it } from 'vitest';
import { collectingRunner, failedOf } from '../test/collecting-runner.js';
import { memoryQuestionStore } from './memory-question-store.js';
import type { QuestionStore, SettleResult } from './question-store.js';
import { describeQuestionStoreConformance } from './question-store-conformance.js';

const NAMES = [
  'ask gives ask_1, ask_2, ask_3 in order with every field as given, open; get returns it through another handle',
  'open() lists the open questions oldest first through either handle, not the settled ones; an unknown id reads undefined',
  'a bad question is refused with a RegistryArgumentError (or a RegistryRangeError for an expiresAt in the past), changing nothing',
  'settle keeps an answer with who gave it and when, a decline and a withdrawal with their reason, a blank answer as null',
  'a second settle, through either handle, gets `already` with the first outcome; a settle of an unknown id resolves undefined',
  '20 settles of one question at once through two handles: exactly one `settled`, the rest `already`, all the same winner',
  'bad ids and outcomes are refused with a RegistryArgumentError (or a RegistryRangeError), changing nothing',
  'a question past its expiresAt reads `expired` on both handles and leaves open(); a settle after it gets `already`, expired',
  'ids are never given twice: the ask after a settle, and after keepSettledMs dropped the settled ones, gets a higher id',
  'two handles asking at once, 10 each, get 20 distinct ask_N ids, all open',
  'past maxOpenQuestions an ask is refused with a QuestionLimitError on either handle, changing nothing; a settle makes room',
  'watch on another handle calls back after an ask and after a settle through this one; once stopped, no more',
  'watch with a listener that is not a function throws a RegistryArgumentError at once',
];

/** Runs the tests `names` of the suite on the stores `open` makes (a short poll); the names of those that failed. */
async function failures(open: () => QuestionStore, names: readonly (string | undefined)[]): Promise<string[]> {
  const { options, tests } = collectingRunner();
  describeQuestionStoreConformance('broken', () => ({ store: open() }), { ...options, pollTimeoutMs: 1_000 });
  return failedOf(tests.filter((test) => names.includes(test.name)));
}

describe('describeQuestionStoreConformance', () => {
  it('registers one describe of its tests, in order, each with the test budget', () => {
    const { options, groups, tests } = collectingRunner();
    describeQuestionStoreConformance('under test', () => ({ store: memoryQuestionStore() }), {
      ...options,
      testTimeoutMs: 12_345,
    });
    expect(groups).toEqual(['under test: the QuestionStore contract']);
    expect(tests.map((test) => test.name)).toEqual(NAMES);
    expect(new Set(tests.map((test) => test.timeout))).toEqual(new Set([12_345]));
  });

  it('passes the memory store through two handles on it, and closes each store it opened', async () => {
    const { options, tests } = collectingRunner();
    let opened = 0;
    let closed = 0;
    describeQuestionStoreConformance(
      'memory',
      ({ limits }) => {
        opened += 1;
        const store = memoryQuestionStore({ limits });
        // A second handle: the same list behind another object, as another process's would be.
        const close = async () => {
          closed += 1;
        };
        return { store, other: async () => ({ ...store }), close };
      },
      options,
    );
    expect(await failedOf(tests)).toEqual([]);
    expect(opened).toBe(NAMES.length);
    expect(closed).toBe(opened);
  }, 60_000);

  it('fails a store whose settle looks before it writes (two settles both win)', async () => {
    const failed = await failures(() => {
      const store = memoryQuestionStore();
      return {
        ...store,
        settle: async (id, outcome): Promise<SettleResult | undefined> => {
          const seen = await store.get(id);
          await new Promise((resolve) => setTimeout(resolve, 5));
          const result = await store.settle(id, outcome);
          // Not atomic: what it looked at was open, so it answers that this outcome won.
          if (seen?.state === 'open' && result && 'already' in result) return { settled: { ...seen, ...outcome } };
          return result;
        },
      };
    }, [NAMES[5]]);
    expect(failed).toEqual([NAMES[5]]);
  }, 60_000);

  it('fails a store that never reads a question expired, and one that gives no error class', async () => {
    const neverExpires = await failures(() => {
      const store = memoryQuestionStore();
      const fresh = <T extends { state: string } | undefined>(question: T) =>
        question?.state === 'expired' ? { ...question, state: 'open' as const } : question;
      return { ...store, get: async (id) => fresh(await store.get(id)) };
    }, [NAMES[7]]);
    expect(neverExpires).toEqual([NAMES[7]]);
    const plainErrors = await failures(() => {
      const store = memoryQuestionStore();
      return {
        ...store,
        ask: (question) => store.ask(question).catch((error: Error) => Promise.reject(new Error(error.message))),
      };
    }, [NAMES[2], NAMES[10]]);
    expect(plainErrors).toEqual([NAMES[2], NAMES[10]]);
  }, 60_000);
});
