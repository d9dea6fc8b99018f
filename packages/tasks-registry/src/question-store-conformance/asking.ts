/** The conformance group of asking: ids, fields, open(), and the questions a store refuses. */
import { RegistryArgumentError, RegistryRangeError } from '../errors.js';
import type { OutgoingQuestion } from '../question-store.js';
import { HOUR_MS, idNumber, ids, outgoing, type QuestionSuiteTools, SETTLED_FIELDS } from './suite-context.js';

/** `[<hole>, 'yes']`: a sparse array, whose first index holds nothing. */
function sparseOptions(): string[] {
  const options: string[] = [];
  options[1] = 'yes';
  return options;
}

/** Ids, fields, open(), and the questions a store refuses. */
export function asking(tools: QuestionSuiteTools): void {
  idsAndFields(tools);
  openOldestFirst(tools);
  badQuestions(tools);
}

/** Texts that must come back as they went in. */
const TRICKY = "Ship \"v2\" <now>?\nSay 'yes' or 'no' 🚀";

/** The first asks of a list get ask_1, ask_2, ask_3, with their fields as given, open. */
function idsAndFields({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'ask gives ask_1, ask_2, ask_3 in order with every field as given, open; get returns it through another handle',
    test(
      async ({ store, other, limits }) => {
        const expiresAt = Date.now() + HOUR_MS;
        const longest = 'q'.repeat(limits.maxTextLength);
        const options = Array.from({ length: limits.maxOptions }, (_, index) => (index === 0 ? longest : `o${index}`));
        const given: OutgoingQuestion[] = [
          { asker: 'alice', question: TRICKY, options: ['yes', 'no', TRICKY], expiresAt },
          { asker: 'b'.repeat(200), question: longest, options, expiresAt: expiresAt + 1 },
          { asker: 'alice', question: '', options: [], expiresAt },
        ];
        const asked = [];
        for (const question of given) asked.push(await store.ask(question));
        expect(ids(asked)).toEqual(['ask_1', 'ask_2', 'ask_3']);
        const elsewhere = await other();
        for (const [index, question] of asked.entries()) {
          const { asker, question: text, options: offered, expiresAt: expires } = given[index] as OutgoingQuestion;
          expect(question).toMatchObject({ asker, question: text, options: [...offered], expiresAt: expires });
          expect(question.state).toBe('open');
          expect(typeof question.askedAt === 'number' && question.askedAt < question.expiresAt).toBe(true);
          for (const field of SETTLED_FIELDS) expect(field in question, `an open question has no ${field}`).toBe(false);
          expect(await elsewhere.get(question.id)).toEqual(question);
          expect(await store.get(question.id)).toEqual(question);
        }
      },
      { maxTextLength: 50, maxOptions: 4 },
    ),
    timeout,
  );
}

/** open() lists the open questions, oldest first, on both handles; get of an unknown id is undefined. */
function openOldestFirst({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'open() lists the open questions oldest first through either handle, not the settled ones; an unknown id reads undefined',
    test(async ({ store, other }) => {
      const elsewhere = await other();
      expect(await store.open()).toEqual([]);
      const first = await store.ask(outgoing('alice', 'one'));
      const second = await elsewhere.ask(outgoing('bob', 'two'));
      const third = await store.ask(outgoing('alice', 'three'));
      expect(idNumber(first.id) < idNumber(second.id) && idNumber(second.id) < idNumber(third.id)).toBe(true);
      expect(await store.open()).toEqual([first, second, third]);
      expect(await elsewhere.open()).toEqual([first, second, third]);
      await elsewhere.settle(second.id, { state: 'withdrawn' });
      expect(ids(await store.open())).toEqual([first.id, third.id]);
      expect(ids(await elsewhere.open())).toEqual([first.id, third.id]);
      expect(await store.get('ask_999999')).toBeUndefined();
      expect(await elsewhere.get('no such question')).toBeUndefined();
    }),
    timeout,
  );
}

/** Questions a store must refuse, each with what it is and whether only the argument error will do. */
function badAsks(longest: number, most: number): [string, unknown, 'argument' | 'argument or range'][] {
  const past = Date.now() - 60_000;
  return [
    ['no question', undefined, 'argument'],
    ['null', null, 'argument'],
    ['an empty asker', outgoing('', 'q'), 'argument'],
    ['an asker of 201 characters', outgoing('a'.repeat(201), 'q'), 'argument'],
    ['a numeric asker', { ...outgoing('x', 'q'), asker: 7 }, 'argument'],
    ['no asker', { question: 'q', options: [], expiresAt: Date.now() + HOUR_MS }, 'argument'],
    ['a numeric question', { ...outgoing('alice', 'q'), question: 7 }, 'argument'],
    ['a question too long', outgoing('alice', 'q'.repeat(longest + 1)), 'argument'],
    ['options that are not an array', { ...outgoing('alice', 'q'), options: 'yes' }, 'argument'],
    ['too many options', outgoing('alice', 'q', { options: Array.from({ length: most + 1 }, String) }), 'argument'],
    ['an option that is not a string', { ...outgoing('alice', 'q'), options: ['yes', 2] }, 'argument'],
    // A hole of a sparse array is no string either: kept, it would read back as nothing.
    ['a hole among the options', { ...outgoing('alice', 'q'), options: sparseOptions() }, 'argument'],
    ['an option too long', outgoing('alice', 'q', { options: ['o'.repeat(longest + 1)] }), 'argument'],
    ['an expiresAt that is not a number', { ...outgoing('alice', 'q'), expiresAt: 'soon' }, 'argument'],
    ['an expiresAt in the past', outgoing('alice', 'q', { expiresAt: past }), 'argument or range'],
  ];
}

/** Bad questions are refused with the contract's error classes, changing nothing. */
function badQuestions({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'a bad question is refused with a RegistryArgumentError (or a RegistryRangeError for an expiresAt in the past), changing nothing',
    test(
      async ({ store, other, limits, refusal }) => {
        const good = await store.ask(outgoing('alice', 'q'.repeat(limits.maxTextLength)));
        for (const [what, question, classes] of badAsks(limits.maxTextLength, limits.maxOptions)) {
          const error = await refusal(`ask of ${what}`, () => store.ask(question as OutgoingQuestion));
          const refused =
            RegistryArgumentError.isInstance(error) || (classes !== 'argument' && RegistryRangeError.isInstance(error));
          expect(refused, `ask of ${what}: received ${String(error)}`).toBe(true);
        }
        expect(await store.open()).toEqual([good]);
        expect(await (await other()).open()).toEqual([good]);
        const next = await store.ask(outgoing('alice', 'after'));
        expect(idNumber(next.id) > idNumber(good.id), `${next.id} comes after ${good.id}`).toBe(true);
      },
      { maxTextLength: 40, maxOptions: 3 },
    ),
    timeout,
  );
}
