// The question store's own checks, before the database: the ids it reads, the bounds it is
// opened with, and PostgreSQL's rule that no text holds U+0000.
import { DEFAULT_QUESTION_LIMITS, RegistryArgumentError, RegistryRangeError } from '@raider/tasks-registry';
import { describe, expect, it } from 'vitest';
import { checkOutcome, checkQuestion, questionNumber, resolveQuestionLimits } from './question-checks.js';

describe('the question checks', () => {
  it('reads the number of ask_N, and nothing of another id (or one beyond a bigint)', () => {
    expect(questionNumber('ask_1')).toBe('1');
    expect(questionNumber('ask_9223372036854775807')).toBe('9223372036854775807');
    for (const id of ['ask_0', 'ask_01', 'ask_', 'ask_1 ', 'ASK_1', '1', 'ask_9223372036854775808', 'ask_1e3']) {
      expect(questionNumber(id), id).toBeUndefined();
    }
  });

  it('resolves questionLimits over the defaults, refusing bounds that are not positive', () => {
    expect(resolveQuestionLimits(DEFAULT_QUESTION_LIMITS, undefined)).toBe(DEFAULT_QUESTION_LIMITS);
    expect(resolveQuestionLimits(DEFAULT_QUESTION_LIMITS, { keepSettledMs: 0.5, maxOptions: 2 })).toEqual({
      ...DEFAULT_QUESTION_LIMITS,
      keepSettledMs: 0.5,
      maxOptions: 2,
    });
    expect(() => resolveQuestionLimits(DEFAULT_QUESTION_LIMITS, { maxOpenQuestions: 1.5 })).toThrow(RegistryRangeError);
    expect(() => resolveQuestionLimits(DEFAULT_QUESTION_LIMITS, { maxTextLength: '9' })).toThrow(
      'openPostgresLists: questionLimits.maxTextLength: expected a positive integer, received "9"',
    );
    expect(() => resolveQuestionLimits(DEFAULT_QUESTION_LIMITS, 5)).toThrow(RegistryArgumentError);
  });

  it('refuses U+0000 in every text of a question and an outcome, naming the field', () => {
    const question = { asker: 'ada', question: 'ok?', options: ['yes', 'n\u0000o'], expiresAt: Date.now() + 1000 };
    expect(() => checkQuestion(question, DEFAULT_QUESTION_LIMITS, Date.now())).toThrow(
      "ask: options[1]: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at 1",
    );
    expect(() => checkQuestion({ ...question, options: [], asker: 'a\u0000' }, DEFAULT_QUESTION_LIMITS, 0)).toThrow(
      'ask: asker: expected no U+0000 character',
    );
    expect(() => checkOutcome({ state: 'declined', reason: '\u0000' }, DEFAULT_QUESTION_LIMITS)).toThrow(
      'settle: reason: expected no U+0000 character',
    );
    expect(() => checkOutcome({ state: 'withdrawn', by: 'x\u0000' }, DEFAULT_QUESTION_LIMITS)).toThrow(
      'settle: by: expected no U+0000 character',
    );
  });
});
