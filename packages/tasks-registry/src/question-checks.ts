/**
 * The checks of what a QuestionStore is given (a question to ask, an id, an outcome, a listener,
 * the limits), bound to this package's error classes: the kit's one copy of the contract's checks
 * (`@raider/kit/question-checks`), whose messages say what was wrong, what was expected and what
 * was received, and never echo a long value back (a length instead). Private to the package: the
 * memory store uses them; a durable store binds the same copy (the conformance suite checks it).
 */
import { type QuestionChecks, questionChecks } from '@raider/kit/question-checks';
import { QuestionLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
import {
  DEFAULT_QUESTION_LIMITS,
  type OutgoingQuestion,
  type QuestionLimits,
  type QuestionOutcome,
} from './question-store.js';

const checks: QuestionChecks<OutgoingQuestion, QuestionOutcome, QuestionLimitError> = questionChecks({
  argumentError: RegistryArgumentError,
  rangeError: RegistryRangeError,
  limitError: QuestionLimitError,
});

// Assertion functions are called through names with a declared type (TypeScript's rule).
export const checkOutgoingQuestion: typeof checks.checkOutgoingQuestion = checks.checkOutgoingQuestion;
export const checkQuestionId: typeof checks.checkQuestionId = checks.checkQuestionId;
export const checkOutcome: typeof checks.checkOutcome = checks.checkOutcome;
export const checkListener: typeof checks.checkListener = checks.checkListener;

/** The QuestionLimitError of an ask to a list that holds `limit` open questions already. */
export function tooManyOpenError(limit: number): QuestionLimitError {
  return checks.tooManyOpen(limit);
}

/**
 * The limits a store keeps: `DEFAULT_QUESTION_LIMITS` with the given ones over them, each checked
 * (`maxTextLength`, `maxOptions`, `maxOpenQuestions` positive integers, `keepSettledMs` a positive
 * number), frozen.
 */
export function resolveQuestionLimits(caller: string, limits: unknown): Readonly<QuestionLimits> {
  return checks.resolveLimits(caller, 'limits', limits, DEFAULT_QUESTION_LIMITS);
}
