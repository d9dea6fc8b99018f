/**
 * The checks of what a QuestionStore is given (a question to ask, an id, an outcome, a listener,
 * the limits), bound to this package's error classes, in the words of the MessageStore checks:
 * what was wrong, what was expected, what was received, never a long value echoed back (a
 * length instead). Private to the package: the memory store uses them; a durable store keeps the
 * same rules (the conformance suite checks it).
 */
import { QuestionLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
import { checkAgent, received } from './message-checks.js';
import {
  DEFAULT_QUESTION_LIMITS,
  type OutgoingQuestion,
  type QuestionLimits,
  type QuestionOutcome,
} from './question-store.js';

/** The states an outcome may settle a question with. */
const OUTCOME_STATES: ReadonlySet<string> = new Set(['answered', 'declined', 'withdrawn']);

/** Throws the argument error unless `value` is a string of at most `max` characters (or absent, when `optional`). */
function checkText(caller: string, field: string, value: unknown, max: number, optional = false): void {
  if (optional && value === undefined) return;
  if (typeof value !== 'string') {
    const expected = optional ? 'a string or nothing' : 'a string';
    throw new RegistryArgumentError(`${caller}: ${field}: expected ${expected}, received ${received(value)}`);
  }
  if (value.length > max) {
    throw new RegistryArgumentError(
      `${caller}: ${field}: expected at most ${max} characters, received a string of ${value.length}`,
    );
  }
}

/** Throws unless `options` is an array of at most `maxOptions` strings, each at most `maxTextLength` long. */
function checkOptions(options: unknown, limits: Readonly<QuestionLimits>): void {
  if (!Array.isArray(options)) {
    throw new RegistryArgumentError(
      `ask: options: expected an array of strings (empty for a free answer), received ${received(options)}`,
    );
  }
  if (options.length > limits.maxOptions) {
    throw new RegistryArgumentError(
      `ask: options: expected at most ${limits.maxOptions} options, received ${options.length}`,
    );
  }
  options.forEach((option, index) => {
    checkText('ask', `options[${index}]`, option, limits.maxTextLength);
  });
}

/**
 * Throws unless `question` is an `OutgoingQuestion` within `limits` whose `expiresAt` is after
 * `now`: a RegistryArgumentError for a wrong shape, an asker that is not an agent's name, a text
 * too long or too many options; a RegistryRangeError for an `expiresAt` not after now (or not
 * finite). The fields are checked in the order of the contract.
 */
export function checkOutgoingQuestion(
  question: unknown,
  limits: Readonly<QuestionLimits>,
  now: number,
): asserts question is OutgoingQuestion {
  if (typeof question !== 'object' || question === null || Array.isArray(question)) {
    throw new RegistryArgumentError(
      `ask: expected a question { asker, question, options, expiresAt }, received ${received(question)}`,
    );
  }
  const fields = question as Record<string, unknown>;
  checkAgent('ask', 'asker', fields.asker);
  checkText('ask', 'question', fields.question, limits.maxTextLength);
  checkOptions(fields.options, limits);
  const { expiresAt } = fields;
  if (typeof expiresAt !== 'number') {
    throw new RegistryArgumentError(
      `ask: expiresAt: expected a time in ms since the epoch, received ${received(expiresAt)}`,
    );
  }
  if (!Number.isFinite(expiresAt) || !(expiresAt > now)) {
    throw new RegistryRangeError(`ask: expiresAt: expected a time after now (${now}), received ${expiresAt}`);
  }
}

/** Throws the argument error unless `id` is a string (any string: one never asked reads undefined). */
export function checkQuestionId(caller: string, id: unknown): asserts id is string {
  if (typeof id !== 'string') {
    throw new RegistryArgumentError(`${caller}: id: expected a question's id (a string), received ${received(id)}`);
  }
}

/**
 * Throws the argument error unless `outcome` is a `QuestionOutcome`: `answered` with an `answer`
 * that is a string (at most `maxTextLength`) or null, or `declined` / `withdrawn` with an optional
 * `reason`; `by`, when given, a string of at most `maxTextLength`.
 */
export function checkOutcome(outcome: unknown, limits: Readonly<QuestionLimits>): asserts outcome is QuestionOutcome {
  if (typeof outcome !== 'object' || outcome === null || Array.isArray(outcome)) {
    throw new RegistryArgumentError(
      `settle: expected an outcome { state: "answered", answer } or { state: "declined" | "withdrawn", reason? }, received ${received(outcome)}`,
    );
  }
  const fields = outcome as Record<string, unknown>;
  if (typeof fields.state !== 'string' || !OUTCOME_STATES.has(fields.state)) {
    throw new RegistryArgumentError(
      `settle: state: expected "answered", "declined" or "withdrawn", received ${received(fields.state)}`,
    );
  }
  if (fields.state === 'answered') {
    if (fields.answer !== null && typeof fields.answer !== 'string') {
      throw new RegistryArgumentError(
        `settle: answer: expected a string or null (a blank answer), received ${received(fields.answer)}`,
      );
    }
    if (fields.answer !== null) checkText('settle', 'answer', fields.answer, limits.maxTextLength);
  } else {
    checkText('settle', 'reason', fields.reason, limits.maxTextLength, true);
  }
  checkText('settle', 'by', fields.by, limits.maxTextLength, true);
}

/** Throws the argument error unless `listener` is a function (watch throws, it does not reject). */
export function checkListener(listener: unknown): asserts listener is () => void {
  if (typeof listener !== 'function') {
    throw new RegistryArgumentError(`watch: listener: expected a function, received ${received(listener)}`);
  }
}

/** The QuestionLimitError of an ask to a list that holds `limit` open questions already. */
export function tooManyOpenError(limit: number): QuestionLimitError {
  return new QuestionLimitError(
    `ask: the list holds ${limit} open questions, the most allowed; it takes none until one is settled or expires`,
  );
}

/** Throws unless `value` is absent or a positive number (an integer when `integer`). */
function checkPositive(caller: string, field: string, value: unknown, integer: boolean): void {
  if (value === undefined) return;
  const expected = integer ? 'a positive integer' : 'a positive number';
  if (typeof value !== 'number') {
    throw new RegistryArgumentError(`${caller}: ${field}: expected ${expected}, received ${received(value)}`);
  }
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new RegistryRangeError(`${caller}: ${field}: expected ${expected}, received ${value}`);
  }
}

/**
 * The limits a store keeps: `DEFAULT_QUESTION_LIMITS` with the given ones over them, each checked
 * (`maxTextLength`, `maxOptions`, `maxOpenQuestions` positive integers, `keepSettledMs` a positive
 * number), frozen.
 */
export function resolveQuestionLimits(caller: string, limits: unknown): Readonly<QuestionLimits> {
  if (limits === undefined) return DEFAULT_QUESTION_LIMITS;
  if (typeof limits !== 'object' || limits === null) {
    throw new RegistryArgumentError(`${caller}: limits: expected an object or nothing, received ${received(limits)}`);
  }
  const given = limits as Partial<Record<keyof QuestionLimits, unknown>>;
  checkPositive(caller, 'limits.maxTextLength', given.maxTextLength, true);
  checkPositive(caller, 'limits.maxOptions', given.maxOptions, true);
  checkPositive(caller, 'limits.maxOpenQuestions', given.maxOpenQuestions, true);
  checkPositive(caller, 'limits.keepSettledMs', given.keepSettledMs, false);
  return Object.freeze({ ...DEFAULT_QUESTION_LIMITS, ...definedOnly(given) }) as Readonly<QuestionLimits>;
}

/** `given` without its undefined fields (so they leave the defaults in place). */
function definedOnly(given: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(given).filter(([key, value]) => value !== undefined && key in DEFAULT_QUESTION_LIMITS),
  );
}
