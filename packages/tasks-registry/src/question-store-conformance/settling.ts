/** The conformance group of settling: the outcomes, the first one winning, and bad outcomes. */
import { RegistryArgumentError, RegistryRangeError } from '../errors.js';
import type { QuestionOutcome, QuestionStore, SettleResult, StoredQuestion } from '../question-store.js';
import { outgoing, type QuestionSuiteTools } from './suite-context.js';

/** The outcomes, the first one winning, and bad outcomes. */
export function settling(tools: QuestionSuiteTools): void {
  outcomes(tools);
  firstWins(tools);
  concurrentSettles(tools);
  badOutcomes(tools);
}

/** The question a settle result carries, whichever way it went. */
const questionOf = (result: SettleResult | undefined) =>
  result === undefined ? undefined : 'settled' in result ? result.settled : result.already;

/** Each outcome is kept with its fields: answer and who, reason, when. */
function outcomes({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'settle keeps an answer with who gave it and when, a decline and a withdrawal with their reason, a blank answer as null',
    test(async ({ store, other }) => {
      const asked = await Promise.all(
        ['answer', 'blank', 'decline', 'withdraw'].map((q) => store.ask(outgoing('bob', q))),
      );
      const [answered, blank, declined, withdrawn] = asked as [
        StoredQuestion,
        StoredQuestion,
        StoredQuestion,
        StoredQuestion,
      ];
      const before = Date.now();
      const results = [
        await store.settle(answered.id, { state: 'answered', answer: 'Yes, "ship" it\n🚀', by: 'ana' }),
        await store.settle(blank.id, { state: 'answered', answer: null }),
        await store.settle(declined.id, {
          state: 'declined',
          reason: 'not mine to say',
          by: 'a person at raider/board',
        }),
        await store.settle(withdrawn.id, { state: 'withdrawn', reason: 'the run stopped' }),
      ];
      for (const result of results)
        expect(result !== undefined && 'settled' in result, 'each first settle wins').toBe(true);
      const settled = results.map(questionOf) as StoredQuestion[];
      expect(settled[0]).toMatchObject({
        ...answered,
        state: 'answered',
        answer: 'Yes, "ship" it\n🚀',
        settledBy: 'ana',
      });
      expect(settled[1]).toMatchObject({ ...blank, state: 'answered' });
      expect(settled[1]?.answer, 'a blank answer is kept as null').toBeNull();
      expect(settled[2]).toMatchObject({
        state: 'declined',
        reason: 'not mine to say',
        settledBy: 'a person at raider/board',
      });
      expect(settled[3]).toMatchObject({ state: 'withdrawn', reason: 'the run stopped' });
      for (const question of settled) {
        expect(typeof question.settledAt === 'number' && question.settledAt >= question.askedAt).toBe(true);
        expect(question.settledAt as number).toBeLessThanOrEqual(Date.now() + 60_000);
        expect(question.settledAt as number).toBeGreaterThanOrEqual(before - 60_000);
      }
      const elsewhere = await other();
      for (const question of settled) expect(await elsewhere.get(question.id)).toEqual(question);
      expect(await store.open()).toEqual([]);
    }),
    timeout,
  );
}

/** A second settle is told the first outcome; a settle of nothing is undefined. */
function firstWins({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'a second settle, through either handle, gets `already` with the first outcome; a settle of an unknown id resolves undefined',
    test(async ({ store, other }) => {
      const asked = await store.ask(outgoing('bob', 'Ship it?', { options: ['yes', 'no'] }));
      const first = await store.settle(asked.id, { state: 'answered', answer: 'yes', by: 'ana' });
      const winner = questionOf(first);
      const elsewhere = await other();
      const again = await elsewhere.settle(asked.id, { state: 'answered', answer: 'no', by: 'ben' });
      const declined = await store.settle(asked.id, { state: 'declined', reason: 'too late' });
      expect(again).toEqual({ already: winner });
      expect(declined).toEqual({ already: winner });
      expect(await elsewhere.get(asked.id)).toEqual(winner);
      expect(await store.settle('ask_999999', { state: 'withdrawn' })).toBeUndefined();
      expect(await elsewhere.settle('nothing', { state: 'answered', answer: 'x' })).toBeUndefined();
    }),
    timeout,
  );
}

/** Twenty settles of one question at once on two handles: one wins, all agree on it. */
function concurrentSettles({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    '20 settles of one question at once through two handles: exactly one `settled`, the rest `already`, all the same winner',
    test(async ({ store, other }) => {
      const asked = await store.ask(outgoing('bob', 'Which one?'));
      const handles: QuestionStore[] = [store, await other()];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) => {
          const outcome: QuestionOutcome =
            index % 3 === 2
              ? { state: 'declined', reason: `r${index}`, by: `p${index}` }
              : { state: 'answered', answer: `a${index}`, by: `p${index}` };
          return (handles[index % 2] as QuestionStore).settle(asked.id, outcome);
        }),
      );
      const won = results.filter((result) => result !== undefined && 'settled' in result);
      expect(won, 'exactly one settle wins').toHaveLength(1);
      const winner = questionOf(won[0]) as StoredQuestion;
      for (const result of results) if (result !== won[0]) expect(result).toEqual({ already: winner });
      expect(await store.get(asked.id)).toEqual(winner);
      expect(await (handles[1] as QuestionStore).get(asked.id)).toEqual(winner);
    }),
    timeout,
  );
}

/** Settles and gets a store must refuse, on `store`, for the question `id`. */
function badCalls(store: QuestionStore, id: string, longest: number): [string, () => Promise<unknown>][] {
  const settle = (outcome: unknown) => () => store.settle(id, outcome as QuestionOutcome);
  return [
    ['get of a numeric id', () => store.get(7 as unknown as string)],
    ['settle of a numeric id', () => store.settle(7 as unknown as string, { state: 'withdrawn' })],
    ['settle without an outcome', settle(undefined)],
    ['settle with the state open', settle({ state: 'open' })],
    ['settle with the state expired', settle({ state: 'expired' })],
    ['settle of an answer without `answer`', settle({ state: 'answered' })],
    ['settle of a numeric answer', settle({ state: 'answered', answer: 5 })],
    ['settle of an answer too long', settle({ state: 'answered', answer: 'a'.repeat(longest + 1) })],
    ['settle with a numeric reason', settle({ state: 'declined', reason: 5 })],
    ['settle with a numeric `by`', settle({ state: 'withdrawn', by: 5 })],
  ];
}

/** Bad ids and outcomes are refused, leaving the question open. */
function badOutcomes({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'bad ids and outcomes are refused with a RegistryArgumentError (or a RegistryRangeError), changing nothing',
    test(
      async ({ store, limits, refusal }) => {
        const asked = await store.ask(outgoing('bob', 'Still open?'));
        for (const [what, call] of badCalls(store, asked.id, limits.maxTextLength)) {
          const error = await refusal(what, call);
          const refused = RegistryArgumentError.isInstance(error) || RegistryRangeError.isInstance(error);
          expect(refused, `${what}: received ${String(error)}`).toBe(true);
        }
        expect(await store.get(asked.id)).toEqual(asked);
        expect(await store.open()).toEqual([asked]);
      },
      { maxTextLength: 40 },
    ),
    timeout,
  );
}
