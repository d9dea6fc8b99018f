// The QuestionStore contract's argument checks, bound to a store's error classes: which class each
// refusal throws, its text, the order the checks run in, and the options where the stores differ
// (a store's texts are pinned by the store's own tests and the conformance suite; these pin the
// kit's one copy).
import { describe, expect, it } from 'vitest';
import { type QuestionChecks, questionChecks } from './question-checks.js';

// Each named apart: `toThrow(new ArgumentError(text))` compares the name and the whole text.
class ArgumentError extends TypeError {
  override name = 'ArgumentError';
}
class OutOfRange extends RangeError {
  override name = 'OutOfRange';
}
class OverLimit extends Error {
  override name = 'OverLimit';
}

interface Question {
  asker: string;
  question: string;
  options: readonly string[];
  expiresAt: number;
}
type Outcome = { state: 'answered'; answer: string | null } | { state: 'declined' | 'withdrawn'; reason?: string };

const LIMITS = Object.freeze({ maxTextLength: 10, maxOptions: 3, maxOpenQuestions: 5, keepSettledMs: 1_000 });
const errors = { argumentError: ArgumentError, rangeError: OutOfRange, limitError: OverLimit };
const checks: QuestionChecks<Question, Outcome, OverLimit> = questionChecks(errors);
const NOW = 1_000;
const QUESTION = Object.freeze({ asker: 'bob', question: 'Ship it?', options: ['yes', 'no'], expiresAt: NOW + 1 });

/** The ask of `question` (by `bound`'s checks), as a call to hand `expect(…).toThrow`. */
function ask(question: unknown, bound = checks): () => void {
  return () => bound.checkOutgoingQuestion(question, LIMITS, NOW);
}

/** The settle with `outcome`, as a call to hand `expect(…).toThrow`. */
function settle(outcome: unknown): () => void {
  return () => checks.checkOutcome(outcome, LIMITS);
}

describe('checkOutgoingQuestion', () => {
  it('accepts a question within the limits that expires after now', () => {
    expect(() => checks.checkOutgoingQuestion(QUESTION, LIMITS, NOW)).not.toThrow();
    const atLimits = { ...QUESTION, question: 'q'.repeat(10), options: ['a', 'b', 'c'.repeat(10)] };
    expect(() => checks.checkOutgoingQuestion(atLimits, LIMITS, NOW)).not.toThrow();
    expect(() => checks.checkOutgoingQuestion({ ...QUESTION, options: [] }, LIMITS, NOW)).not.toThrow();
  });

  it("refuses a question of the wrong shape, field by field, in the contract's words", () => {
    expect(ask([])).toThrow(
      new ArgumentError('ask: expected a question { asker, question, options, expiresAt }, received an array'),
    );
    expect(ask(null)).toThrow(
      new ArgumentError('ask: expected a question { asker, question, options, expiresAt }, received null'),
    );
    expect(ask({ ...QUESTION, asker: '' })).toThrow(
      new ArgumentError(
        `ask: asker: expected an agent's name (a non-empty string of at most 200 characters), received ""`,
      ),
    );
    expect(ask({ ...QUESTION, question: 7 })).toThrow(
      new ArgumentError('ask: question: expected a string, received number'),
    );
    expect(ask({ ...QUESTION, options: 'yes' })).toThrow(
      new ArgumentError('ask: options: expected an array of strings (empty for a free answer), received "yes"'),
    );
    expect(ask({ ...QUESTION, options: ['yes', 2] })).toThrow(
      new ArgumentError('ask: options[1]: expected a string, received number'),
    );
    expect(ask({ ...QUESTION, expiresAt: '2030' })).toThrow(
      new ArgumentError('ask: expiresAt: expected a time in ms since the epoch, received "2030"'),
    );
  });

  it('refuses a text too long or too many options with the argument error, showing a length', () => {
    expect(ask({ ...QUESTION, question: 'q'.repeat(500) })).toThrow(
      new ArgumentError('ask: question: expected at most 10 characters, received a string of 500'),
    );
    expect(ask({ ...QUESTION, options: ['a', 'b', 'c', 'd'] })).toThrow(
      new ArgumentError('ask: options: expected at most 3 options, received 4'),
    );
    expect(ask({ ...QUESTION, options: ['a', 'o'.repeat(11)] })).toThrow(
      new ArgumentError('ask: options[1]: expected at most 10 characters, received a string of 11'),
    );
  });

  it('refuses an expiresAt not after now, or not finite, with the range error', () => {
    for (const expiresAt of [NOW, NOW - 1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(ask({ ...QUESTION, expiresAt })).toThrow(
        new OutOfRange(`ask: expiresAt: expected a time after now (${NOW}), received ${expiresAt}`),
      );
    }
  });

  it('checks the fields in the order of the contract: asker, question, options, expiresAt', () => {
    const bad = { asker: 7, question: 7, options: 7, expiresAt: 'x' };
    expect(ask(bad)).toThrow(/^ask: asker: /);
    expect(ask({ ...bad, asker: 'bob' })).toThrow(/^ask: question: /);
    expect(ask({ ...bad, asker: 'bob', question: 'q' })).toThrow(/^ask: options: /);
    expect(ask({ ...bad, asker: 'bob', question: 'q', options: [] })).toThrow(/^ask: expiresAt: /);
  });
});

describe('checkOutcome', () => {
  it('accepts an answer (a string or null), or a decline or withdrawal with an optional reason and by', () => {
    for (const outcome of [
      { state: 'answered', answer: 'yes', by: 'ana' },
      { state: 'answered', answer: null },
      { state: 'declined' },
      { state: 'withdrawn', reason: 'shutdown', by: 'x'.repeat(10) },
    ]) {
      expect(() => checks.checkOutcome(outcome, LIMITS)).not.toThrow();
    }
  });

  it("refuses an outcome of another shape, in the contract's words", () => {
    expect(settle('yes')).toThrow(
      new ArgumentError(
        'settle: expected an outcome { state: "answered", answer } or { state: "declined" | "withdrawn", reason? }, received "yes"',
      ),
    );
    expect(settle({ state: 'expired' })).toThrow(
      new ArgumentError('settle: state: expected "answered", "declined" or "withdrawn", received "expired"'),
    );
    expect(settle({ state: 'answered' })).toThrow(
      new ArgumentError('settle: answer: expected a string or null (a blank answer), received nothing'),
    );
    expect(settle({ state: 'declined', reason: 3 })).toThrow(
      new ArgumentError('settle: reason: expected a string or nothing, received number'),
    );
    expect(settle({ state: 'answered', answer: 'y', by: false })).toThrow(
      new ArgumentError('settle: by: expected a string or nothing, received boolean'),
    );
  });

  it('refuses an answer, a reason or a by longer than maxTextLength, showing a length', () => {
    expect(settle({ state: 'answered', answer: 'a'.repeat(11) })).toThrow(
      new ArgumentError('settle: answer: expected at most 10 characters, received a string of 11'),
    );
    expect(settle({ state: 'withdrawn', reason: 'r'.repeat(12) })).toThrow(
      new ArgumentError('settle: reason: expected at most 10 characters, received a string of 12'),
    );
    expect(settle({ state: 'declined', by: 'b'.repeat(13) })).toThrow(
      new ArgumentError('settle: by: expected at most 10 characters, received a string of 13'),
    );
  });
});

describe('checkQuestionId, checkListener and tooManyOpen', () => {
  it('takes any string as an id, naming the caller otherwise', () => {
    expect(() => checks.checkQuestionId('get', 'not an id')).not.toThrow();
    expect(() => checks.checkQuestionId('settle', 3)).toThrow(
      new ArgumentError("settle: id: expected a question's id (a string), received number"),
    );
  });

  it('watches with a function', () => {
    expect(() => checks.checkListener(() => {})).not.toThrow();
    expect(() => checks.checkListener('f')).toThrow(
      new ArgumentError('watch: listener: expected a function, received "f"'),
    );
  });

  it('makes the limit error of a list with too many open questions', () => {
    const full = checks.tooManyOpen(5);
    expect(full).toBeInstanceOf(OverLimit);
    expect(full.message).toBe(
      'ask: the list holds 5 open questions, the most allowed; it takes none until one is settled or expires',
    );
  });
});

describe("a store's string rule", () => {
  // Where the rule ran, in order: `<caller> <field>`.
  const seen: string[] = [];
  const recording = (caller: string, field: string): void => {
    seen.push(`${caller} ${field}`);
  };

  it('runs on the asker once it is a name and on each text once its type and length are right', () => {
    const ruled: QuestionChecks<Question, Outcome, OverLimit> = questionChecks({ ...errors, checkString: recording });
    ruled.checkOutgoingQuestion(QUESTION, LIMITS, NOW);
    expect(seen).toEqual(['ask asker', 'ask question', 'ask options[0]', 'ask options[1]']);
    seen.length = 0;
    ruled.checkOutcome({ state: 'declined', reason: 'no', by: 'ana' }, LIMITS);
    ruled.checkOutcome({ state: 'answered', answer: null }, LIMITS);
    expect(seen).toEqual(['settle reason', 'settle by']);
    seen.length = 0;
    expect(() => ruled.checkOutgoingQuestion({ ...QUESTION, question: 'q'.repeat(11) }, LIMITS, NOW)).toThrow();
    expect(seen).toEqual(['ask asker']);
  });

  it("throws the rule's own error where it refuses", () => {
    const ruled = questionChecks({
      ...errors,
      checkString: (caller: string, field: string, value: unknown) => {
        if (value === 'bad') throw new ArgumentError(`${caller}: ${field}: no "bad" here`);
      },
    });
    expect(ask({ ...QUESTION, options: ['ok', 'bad'] }, ruled)).toThrow(
      new ArgumentError('ask: options[1]: no "bad" here'),
    );
    expect(ask({ ...QUESTION, asker: 'bad' }, ruled)).toThrow(new ArgumentError('ask: asker: no "bad" here'));
  });
});

describe('sparse options', () => {
  // A sparse array: index 0 is a hole.
  const sparse = (): string[] => {
    const options: string[] = [];
    options[1] = 'yes';
    return options;
  };

  it("refuses a sparse array's holes as the nothing they read (a hole would be stored as no string)", () => {
    expect(ask({ ...QUESTION, options: sparse() }, checks)).toThrow(
      new ArgumentError('ask: options[0]: expected a string, received nothing'),
    );
    expect(() => checks.checkOutgoingQuestion(QUESTION, LIMITS, NOW)).not.toThrow();
  });
});

describe('resolveLimits', () => {
  it('puts the given bounds over the defaults, frozen, only the four of them, and hands back the defaults for nothing', () => {
    expect(checks.resolveLimits('open', 'limits', undefined, LIMITS)).toBe(LIMITS);
    const limits = checks.resolveLimits('open', 'limits', { maxOptions: 7, keepSettledMs: 0.5, extra: 1 }, LIMITS);
    expect(limits).toEqual({ maxTextLength: 10, maxOptions: 7, maxOpenQuestions: 5, keepSettledMs: 0.5 });
    expect(Object.keys(limits)).toEqual(['maxTextLength', 'maxOptions', 'maxOpenQuestions', 'keepSettledMs']);
    expect(Object.isFrozen(limits)).toBe(true);
    expect(checks.resolveLimits('open', 'limits', { maxTextLength: undefined }, LIMITS)).toEqual(LIMITS);
  });

  it('names the field they were given in, or only the caller when they are its whole argument', () => {
    expect(() => checks.resolveLimits('memoryQuestionStore', 'limits', 'small', LIMITS)).toThrow(
      new ArgumentError('memoryQuestionStore: limits: expected an object or nothing, received "small"'),
    );
    expect(() => checks.resolveLimits('memoryQuestionStore', 'limits', { maxOptions: 0 }, LIMITS)).toThrow(
      new OutOfRange('memoryQuestionStore: limits.maxOptions: expected a positive integer, received 0'),
    );
    expect(() => checks.resolveLimits('questionLimits', undefined, null, LIMITS)).toThrow(
      new ArgumentError('questionLimits: expected an object or nothing, received null'),
    );
    expect(() => checks.resolveLimits('questionLimits', undefined, { keepSettledMs: '1h' }, LIMITS)).toThrow(
      new ArgumentError('questionLimits: keepSettledMs: expected a positive number, received "1h"'),
    );
  });

  it('refuses each bound that is not positive (an integer but keepSettledMs), in the order of the contract', () => {
    for (const field of ['maxTextLength', 'maxOptions', 'maxOpenQuestions']) {
      for (const value of [0, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN]) {
        expect(() => checks.resolveLimits('o', 'q', { [field]: value }, LIMITS)).toThrow(
          new OutOfRange(`o: q.${field}: expected a positive integer, received ${value}`),
        );
      }
    }
    expect(() => checks.resolveLimits('o', 'q', { keepSettledMs: Number.NaN }, LIMITS)).toThrow(
      new OutOfRange('o: q.keepSettledMs: expected a positive number, received NaN'),
    );
    const allBad = { keepSettledMs: 0, maxOpenQuestions: 0, maxOptions: 0, maxTextLength: 0 };
    expect(() => checks.resolveLimits('o', 'q', allBad, LIMITS)).toThrow(/^o: q\.maxTextLength: /);
  });

  it('refuses an array as the bounds, as any other non-object', () => {
    expect(() => checks.resolveLimits('openPostgresLists', 'questionLimits', [], LIMITS)).toThrow(
      new ArgumentError('openPostgresLists: questionLimits: expected an object or nothing, received an array'),
    );
    expect(checks.resolveLimits('o', 'q', { maxOptions: 2 }, LIMITS).maxOptions).toBe(2);
  });
});

describe('questionChecks', () => {
  it('hands out functions that stand alone, bound to the classes it was given', () => {
    const { checkOutcome, tooManyOpen, resolveLimits } = questionChecks(errors);
    expect(() => checkOutcome({ state: 'nope' }, LIMITS)).toThrow(ArgumentError);
    expect(tooManyOpen(1)).toBeInstanceOf(OverLimit);
    expect(() => resolveLimits('o', undefined, { maxOptions: 0 }, LIMITS)).toThrow(OutOfRange);
  });
});
