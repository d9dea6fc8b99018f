/** The conformance group of lifetimes: expiry, the drop after keepSettledMs, ids for good, the open bound. */
import { QuestionLimitError } from '../errors.js';
import type { QuestionStore, StoredQuestion } from '../question-store.js';
import { idNumber, ids, outgoing, type QuestionSuiteTools } from './suite-context.js';

/** The `keepSettledMs` of the tests that wait for settled questions to be dropped. */
const SHORT_KEEP_MS = 200;

/** Expiry, the drop after keepSettledMs, ids for good, the open bound. */
export function lifetimes(tools: QuestionSuiteTools): void {
  expiry(tools);
  idsForGood(tools);
  concurrentAsks(tools);
  openBound(tools);
}

/** A question past its expiresAt reads expired on both handles, leaves open(), and cannot be settled. */
function expiry({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'a question past its expiresAt reads `expired` on both handles and leaves open(); a settle after it gets `already`, expired',
    test(async ({ store, other, expiryMs, eventually }) => {
      const lasting = await store.ask(outgoing('alice', 'later'));
      const brief = await store.ask(outgoing('bob', 'now?', { expiresAt: Date.now() + expiryMs }));
      expect(brief.state).toBe('open');
      const elsewhere = await other();
      const expired = await eventually('the question reads expired', async () => {
        const question = await elsewhere.get(brief.id);
        return question?.state === 'expired' ? question : undefined;
      });
      expect(expired).toMatchObject({ id: brief.id, asker: 'bob', question: 'now?', expiresAt: brief.expiresAt });
      expect(expired.answer, 'an expired question has no answer').toBeUndefined();
      expect((await store.get(brief.id))?.state).toBe('expired');
      expect(ids(await store.open())).toEqual([lasting.id]);
      expect(ids(await elsewhere.open())).toEqual([lasting.id]);
      const late = await store.settle(brief.id, { state: 'answered', answer: 'yes', by: 'ana' });
      expect(late !== undefined && 'already' in late, 'a settle after expiry is told it is too late').toBe(true);
      expect(late !== undefined && 'already' in late ? late.already.state : undefined).toBe('expired');
      expect((await elsewhere.get(brief.id))?.state).toBe('expired');
    }),
    timeout,
  );
}

/** Ids are never given twice: not after a settle, not after the settled questions were dropped. */
function idsForGood({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'ids are never given twice: the ask after a settle, and after keepSettledMs dropped the settled ones, gets a higher id',
    test(
      async ({ store, other, eventually }) => {
        const first = await store.ask(outgoing('alice', 'one'));
        const second = await store.ask(outgoing('alice', 'two'));
        await store.settle(second.id, { state: 'answered', answer: 'done' });
        const third = await store.ask(outgoing('alice', 'three'));
        expect(idNumber(third.id) > idNumber(second.id), `${third.id} comes after ${second.id}`).toBe(true);
        await store.settle(first.id, { state: 'withdrawn' });
        await store.settle(third.id, { state: 'declined' });
        const elsewhere = await other();
        await eventually('the settled questions are dropped after keepSettledMs', async () => {
          const left = await Promise.all([first, second, third].map((question) => elsewhere.get(question.id)));
          return left.every((question) => question === undefined) ? true : undefined;
        });
        expect(await store.settle(third.id, { state: 'withdrawn' }), 'a dropped question is unknown').toBeUndefined();
        const fourth = await store.ask(outgoing('alice', 'four'));
        const fifth = await elsewhere.ask(outgoing('bob', 'five'));
        expect(idNumber(fourth.id) > idNumber(third.id), `${fourth.id} comes after ${third.id}`).toBe(true);
        expect(idNumber(fifth.id) > idNumber(fourth.id), `${fifth.id} comes after ${fourth.id}`).toBe(true);
        expect(await store.open()).toEqual([fourth, fifth]);
      },
      { keepSettledMs: SHORT_KEEP_MS },
    ),
    timeout,
  );
}

/** Two handles asking at once never get one id twice. */
function concurrentAsks({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'two handles asking at once, 10 each, get 20 distinct ask_N ids, all open',
    test(async ({ store, other }) => {
      const handles: QuestionStore[] = [store, await other()];
      const asked = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (handles[index % 2] as QuestionStore).ask(outgoing(`agent${index % 2}`, `q${index}`)),
        ),
      );
      const numbers = asked.map((question) => idNumber(question.id));
      expect(numbers.every(Number.isInteger), `every id is ask_N: ${ids(asked).join(' ')}`).toBe(true);
      expect(new Set(numbers).size, 'no id given twice').toBe(20);
      const open = await store.open();
      expect([...ids(open)].sort()).toEqual([...ids(asked)].sort());
      const order = open.map((question) => idNumber(question.id));
      expect(order, 'open() is oldest first').toEqual([...order].sort((a, b) => a - b));
    }),
    timeout,
  );
}

/** Past maxOpenQuestions an ask is refused; a settle makes room. */
function openBound({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'past maxOpenQuestions an ask is refused with a QuestionLimitError on either handle, changing nothing; a settle makes room',
    test(
      async ({ store, other, refusal }) => {
        const asked: StoredQuestion[] = [];
        for (const text of ['one', 'two', 'three']) asked.push(await store.ask(outgoing('alice', text)));
        const elsewhere = await other();
        for (const [what, handle] of [
          ['this handle', store],
          ['another handle', elsewhere],
        ] as const) {
          const error = await refusal(`an ask past the bound on ${what}`, () => handle.ask(outgoing('bob', 'four')));
          expect(QuestionLimitError.isInstance(error), `on ${what}: received ${String(error)}`).toBe(true);
        }
        expect(await store.open()).toEqual(asked);
        await elsewhere.settle((asked[1] as StoredQuestion).id, { state: 'declined', reason: 'room' });
        const fourth = await elsewhere.ask(outgoing('bob', 'four'));
        expect(idNumber(fourth.id) > idNumber((asked[2] as StoredQuestion).id)).toBe(true);
        expect(ids(await store.open())).toEqual([asked[0]?.id, asked[2]?.id, fourth.id]);
      },
      { maxOpenQuestions: 3 },
    ),
    timeout,
  );
}
