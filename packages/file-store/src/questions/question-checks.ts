/**
 * What the question store is given, checked as the QuestionStore contract of
 * @raider/tasks-registry says, by the kit's one copy of those checks (`@raider/kit/question-checks`)
 * bound to the contract's errors, so in the words its memory store uses (the conformance suite
 * holds every store to them): a RegistryArgumentError for an argument of the wrong shape, an asker
 * that is not an agent's name, a text too long or too many options; a RegistryRangeError for a
 * number out of range; a QuestionLimitError past `maxOpenQuestions`.
 */
import { type QuestionChecks, questionChecks } from '@raider/kit/question-checks';
import {
  DEFAULT_QUESTION_LIMITS,
  type OutgoingQuestion,
  QuestionLimitError,
  type QuestionLimits,
  type QuestionOutcome,
  RegistryArgumentError,
  RegistryRangeError,
} from '@raider/tasks-registry';

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
export function tooManyOpen(limit: number): QuestionLimitError {
  return checks.tooManyOpen(limit);
}

/**
 * The bounds of a list's questions: `DEFAULT_QUESTION_LIMITS` with `given` over them, each checked
 * (`maxTextLength`, `maxOptions`, `maxOpenQuestions` positive integers, `keepSettledMs` a positive
 * number), frozen. @throws RegistryArgumentError, RegistryRangeError (named `questionLimits: <field>`, as `messageLimits`' are)
 */
export function questionLimits(given: unknown): Readonly<QuestionLimits> {
  return checks.resolveLimits('questionLimits', undefined, given, DEFAULT_QUESTION_LIMITS);
}
