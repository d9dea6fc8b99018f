/**
 * The checks of what the question store is given, before anything reaches the database: the
 * QuestionStore contract's argument rules, by the kit's one copy of them
 * (`@raider/kit/question-checks`) bound to `@raider/tasks-registry`'s errors, worded as its memory
 * store words them (so a caller sees one contract whatever the store), and PostgreSQL's own rule
 * that no text holds U+0000. Two rules of this store's own, kept from before the kit held the
 * checks: a hole of a sparse `options` array is refused (it reads as undefined, not a string),
 * and so is an array given as `questionLimits`.
 */
import { type QuestionChecks, questionChecks } from '@raider/kit/question-checks';
import {
  type OutgoingQuestion,
  QuestionLimitError,
  type QuestionLimits,
  type QuestionOutcome,
  RegistryArgumentError,
  RegistryRangeError,
} from '@raider/tasks-registry';
import { checkNoNul } from './message-checks.js';

// Every asker and every text of a question or an outcome is also checked for U+0000.
const checks: QuestionChecks<OutgoingQuestion, QuestionOutcome, QuestionLimitError> = questionChecks({
  argumentError: RegistryArgumentError,
  rangeError: RegistryRangeError,
  limitError: QuestionLimitError,
  checkString: checkNoNul,
});

// Assertion functions are called through names with a declared type (TypeScript's rule).
/** The checks of an ask's question (`now`: the caller's clock, which `expiresAt` is read by). */
export const checkQuestion: typeof checks.checkOutgoingQuestion = checks.checkOutgoingQuestion;
/** Throws unless `id` is a string (one not of the store's form names no question: it is not found). */
export const checkId: typeof checks.checkQuestionId = checks.checkQuestionId;
export const checkOutcome: typeof checks.checkOutcome = checks.checkOutcome;
export const checkListener: typeof checks.checkListener = checks.checkListener;

/** The QuestionLimitError of an ask to a list that holds `limit` open questions already. */
export function tooManyOpenError(limit: number): QuestionLimitError {
  return checks.tooManyOpen(limit);
}

/**
 * The limits of `openPostgresLists({ questionLimits })`: `defaults` with the given ones over them,
 * `maxTextLength`, `maxOptions` and `maxOpenQuestions` positive integers, `keepSettledMs` a
 * positive number.
 */
export function resolveQuestionLimits(defaults: Readonly<QuestionLimits>, limits: unknown): Readonly<QuestionLimits> {
  return checks.resolveLimits('openPostgresLists', 'questionLimits', limits, defaults);
}

/** The number of the store's id `ask_N`, or undefined when `id` is not of that form (or beyond a bigint). */
export function questionNumber(id: string): string | undefined {
  if (!/^ask_[1-9][0-9]{0,18}$/.test(id)) return undefined;
  const n = id.slice(4);
  return BigInt(n) <= 9_223_372_036_854_775_807n ? n : undefined;
}
