/**
 * What the question store is given, checked as the QuestionStore contract of
 * @raider/tasks-registry says, in the words its memory store uses (the conformance suite holds
 * every store to them): a RegistryArgumentError for an argument of the wrong shape, an asker that
 * is not an agent's name, a text too long or too many options; a RegistryRangeError for a number
 * out of range; a QuestionLimitError past `maxOpenQuestions`. Each message says what was wrong,
 * what was expected and what was received, and never echoes a long value back (a length instead).
 * The agent's name and the received value are the kit's one copy of those checks.
 */
import { type MessageChecks, messageChecks } from '@raider/kit/message-checks';
import {
  DEFAULT_QUESTION_LIMITS,
  MessageLimitError,
  type OutgoingMessage,
  type OutgoingQuestion,
  QuestionLimitError,
  type QuestionLimits,
  type QuestionOutcome,
  RegistryArgumentError,
  RegistryRangeError,
  type TakeOptions,
} from '@raider/tasks-registry';

// The kit's agent-name check and its describer of a received value, bound to the contract's errors.
const checks: MessageChecks<OutgoingMessage, TakeOptions, MessageLimitError> = messageChecks({
  argumentError: RegistryArgumentError,
  rangeError: RegistryRangeError,
  limitError: MessageLimitError,
});
// Assertion functions are called through names with a declared type (TypeScript's rule).
const checkAgent: typeof checks.checkAgent = checks.checkAgent;
const { received } = checks;

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
 * `now`: the argument error for a wrong shape, an asker that is not an agent's name, a text too
 * long or too many options; the range error for an `expiresAt` not after now (or not finite).
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
export function tooManyOpen(limit: number): QuestionLimitError {
  return new QuestionLimitError(
    `ask: the list holds ${limit} open questions, the most allowed; it takes none until one is settled or expires`,
  );
}

/** Throws unless `value` is absent or a positive number (an integer when `integer`). */
function checkPositive(field: string, value: unknown, integer: boolean): void {
  if (value === undefined) return;
  const expected = integer ? 'a positive integer' : 'a positive number';
  if (typeof value !== 'number') {
    throw new RegistryArgumentError(`questionLimits: ${field}: expected ${expected}, received ${received(value)}`);
  }
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new RegistryRangeError(`questionLimits: ${field}: expected ${expected}, received ${value}`);
  }
}

/**
 * The bounds of a list's questions: `DEFAULT_QUESTION_LIMITS` with `given` over them, each checked
 * (`maxTextLength`, `maxOptions`, `maxOpenQuestions` positive integers, `keepSettledMs` a positive
 * number), frozen. @throws RegistryArgumentError, RegistryRangeError (named `questionLimits: <field>`, as `messageLimits`' are)
 */
export function questionLimits(given: unknown): Readonly<QuestionLimits> {
  if (given === undefined) return DEFAULT_QUESTION_LIMITS;
  if (typeof given !== 'object' || given === null) {
    throw new RegistryArgumentError(`questionLimits: expected an object or nothing, received ${received(given)}`);
  }
  const bounds = given as Partial<Record<keyof QuestionLimits, unknown>>;
  checkPositive('maxTextLength', bounds.maxTextLength, true);
  checkPositive('maxOptions', bounds.maxOptions, true);
  checkPositive('maxOpenQuestions', bounds.maxOpenQuestions, true);
  checkPositive('keepSettledMs', bounds.keepSettledMs, false);
  const pick = <K extends keyof QuestionLimits>(key: K): number =>
    (bounds[key] as number | undefined) ?? DEFAULT_QUESTION_LIMITS[key];
  return Object.freeze({
    maxTextLength: pick('maxTextLength'),
    maxOptions: pick('maxOptions'),
    maxOpenQuestions: pick('maxOpenQuestions'),
    keepSettledMs: pick('keepSettledMs'),
  });
}
