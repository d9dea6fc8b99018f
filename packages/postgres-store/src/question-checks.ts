/**
 * The checks of what the question store is given, before anything reaches the database: the
 * QuestionStore contract's argument rules (`@raider/tasks-registry`'s errors, worded as the
 * message checks word theirs: caller, field, what was expected, what was received, never a huge
 * value), and PostgreSQL's own rule that no text holds U+0000.
 */
import { received } from '@raider/kit/received';
import {
  QuestionLimitError,
  type QuestionLimits,
  type QuestionOutcome,
  RegistryArgumentError,
  RegistryRangeError,
} from '@raider/tasks-registry';
import { checkAgent, checkNoNul } from './message-checks.js';

/** A received value in the contract's wording (a string quoted when short, else its size; other values by type). */
function shown(value: unknown): string {
  return received(value, { by: 'type' });
}

/** Throws unless `value` is a string of at most `max` characters with no U+0000 (or absent, when `optional`). */
function checkText(caller: string, field: string, value: unknown, max: number, optional = false): void {
  if (optional && value === undefined) return;
  if (typeof value !== 'string') {
    const expected = optional ? 'a string or nothing' : 'a string';
    throw new RegistryArgumentError(`${caller}: ${field}: expected ${expected}, received ${shown(value)}`);
  }
  if (value.length > max) {
    throw new RegistryArgumentError(
      `${caller}: ${field}: expected at most ${max} characters, received a string of ${value.length}`,
    );
  }
  checkNoNul(caller, field, value);
}

/** Throws unless `value` is an object (not null, not an array). */
function checkObject(caller: string, what: string, value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RegistryArgumentError(`${caller}: expected ${what}, received ${shown(value)}`);
  }
}

/** The checks of an ask's question (`now`: the caller's clock, which `expiresAt` is read by). */
export function checkQuestion(question: unknown, limits: Readonly<QuestionLimits>, now: number): void {
  checkObject('ask', 'a question { asker, question, options, expiresAt }', question);
  checkAgent('ask', 'asker', question.asker);
  checkText('ask', 'question', question.question, limits.maxTextLength);
  const { options, expiresAt } = question;
  if (!Array.isArray(options)) {
    throw new RegistryArgumentError(
      `ask: options: expected an array of strings (empty for a free answer), received ${shown(options)}`,
    );
  }
  if (options.length > limits.maxOptions) {
    throw new RegistryArgumentError(
      `ask: options: expected at most ${limits.maxOptions} options, received ${options.length}`,
    );
  }
  for (const [index, option] of options.entries()) {
    checkText('ask', `options[${index}]`, option, limits.maxTextLength);
  }
  if (typeof expiresAt !== 'number') {
    throw new RegistryArgumentError(
      `ask: expiresAt: expected a time in ms since the epoch, received ${shown(expiresAt)}`,
    );
  }
  if (!Number.isFinite(expiresAt) || !(expiresAt > now)) {
    throw new RegistryRangeError(`ask: expiresAt: expected a time after now (${now}), received ${expiresAt}`);
  }
}

/** The states an outcome may settle a question with. */
const OUTCOME_STATES: ReadonlySet<string> = new Set(['answered', 'declined', 'withdrawn']);

/**
 * The checks of a settle's outcome: `answered` with an `answer` that is a string or null, or
 * `declined` / `withdrawn` with an optional `reason`; `by`, when given, a string (each text at most
 * `maxTextLength`, no U+0000).
 */
export function checkOutcome(outcome: unknown, limits: Readonly<QuestionLimits>): asserts outcome is QuestionOutcome {
  checkObject(
    'settle',
    'an outcome { state: "answered", answer } or { state: "declined" | "withdrawn", reason? }',
    outcome,
  );
  if (typeof outcome.state !== 'string' || !OUTCOME_STATES.has(outcome.state)) {
    throw new RegistryArgumentError(
      `settle: state: expected "answered", "declined" or "withdrawn", received ${shown(outcome.state)}`,
    );
  }
  if (outcome.state === 'answered') {
    if (outcome.answer !== null && typeof outcome.answer !== 'string') {
      throw new RegistryArgumentError(
        `settle: answer: expected a string or null (a blank answer), received ${shown(outcome.answer)}`,
      );
    }
    if (outcome.answer !== null) checkText('settle', 'answer', outcome.answer, limits.maxTextLength);
  } else {
    checkText('settle', 'reason', outcome.reason, limits.maxTextLength, true);
  }
  checkText('settle', 'by', outcome.by, limits.maxTextLength, true);
}

/** Throws unless `id` is a string (one not of the store's form names no question: it is not found). */
export function checkId(caller: string, id: unknown): asserts id is string {
  if (typeof id !== 'string')
    throw new RegistryArgumentError(`${caller}: id: expected a question's id (a string), received ${shown(id)}`);
}

/** Throws unless `listener` is a function. */
export function checkListener(listener: unknown): void {
  if (typeof listener !== 'function') {
    throw new RegistryArgumentError(`watch: listener: expected a function, received ${shown(listener)}`);
  }
}

/** The QuestionLimitError of an ask to a list that holds `limit` open questions already. */
export function tooManyOpenError(limit: number): QuestionLimitError {
  return new QuestionLimitError(
    `ask: the list holds ${limit} open questions, the most allowed; it takes none until one is settled or expires`,
  );
}

/**
 * The limits of `openPostgresLists({ questionLimits })`: `defaults` with the given ones over them,
 * `maxTextLength`, `maxOptions` and `maxOpenQuestions` positive integers, `keepSettledMs` a
 * positive number.
 */
export function resolveQuestionLimits(defaults: Readonly<QuestionLimits>, limits: unknown): Readonly<QuestionLimits> {
  if (limits === undefined) return defaults;
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
    throw new RegistryArgumentError(
      `openPostgresLists: questionLimits: expected an object or nothing, received ${shown(limits)}`,
    );
  }
  const given = limits as Partial<Record<keyof QuestionLimits, unknown>>;
  const resolved: QuestionLimits = { ...defaults };
  for (const field of ['maxTextLength', 'maxOptions', 'maxOpenQuestions', 'keepSettledMs'] as const) {
    const value = given[field];
    if (value === undefined) continue;
    const integer = field !== 'keepSettledMs';
    const expected = integer ? 'a positive integer' : 'a positive number';
    const where = `openPostgresLists: questionLimits.${field}`;
    if (typeof value !== 'number')
      throw new RegistryArgumentError(`${where}: expected ${expected}, received ${shown(value)}`);
    if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
      throw new RegistryRangeError(`${where}: expected ${expected}, received ${value}`);
    }
    resolved[field] = value;
  }
  return Object.freeze(resolved);
}

/** The number of the store's id `ask_N`, or undefined when `id` is not of that form (or beyond a bigint). */
export function questionNumber(id: string): string | undefined {
  if (!/^ask_[1-9][0-9]{0,18}$/.test(id)) return undefined;
  const n = id.slice(4);
  return BigInt(n) <= 9_223_372_036_854_775_807n ? n : undefined;
}
