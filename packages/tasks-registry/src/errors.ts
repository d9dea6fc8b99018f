/**
 * The errors of @raider/tasks-registry, thrown for a caller's mistake. Each has a stable `code`,
 * and `isInstance` recognises one thrown by another copy of the package.
 */

import { codedErrors } from '@raider/kit';

// This package's coded error classes (a stable code, isInstance across copies of the package).
const coded = codedErrors('@raider/tasks-registry');

/** An argument of the wrong type or shape (a missing id, an id in use, a text that is not a string). */
export class RegistryArgumentError extends coded(TypeError, 'INVALID_ARGUMENT', 'RegistryArgumentError') {}

/** A value outside what is allowed (an unknown status). */
export class RegistryRangeError extends coded(RangeError, 'OUT_OF_RANGE', 'RegistryRangeError') {}

/**
 * A message a store refuses because of its inbox's bounds (`MessageLimits`): a text longer than
 * `maxTextLength`, or a send to an inbox that already holds `maxInboxMessages`. The send changed
 * nothing. A `RangeError`, `code: 'MESSAGE_LIMIT'`.
 */
export class MessageLimitError extends coded(RangeError, 'MESSAGE_LIMIT', 'MessageLimitError') {}

/**
 * An ask a QuestionStore refuses because the list already holds `maxOpenQuestions` open
 * questions (`QuestionLimits`). The ask changed nothing; settling a question (or one expiring)
 * makes room. A `RangeError`, `code: 'QUESTION_LIMIT'`.
 */
export class QuestionLimitError extends coded(RangeError, 'QUESTION_LIMIT', 'QuestionLimitError') {}
