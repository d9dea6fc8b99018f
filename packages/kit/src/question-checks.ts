/**
 * The argument checks of the QuestionStore contract (`@raider/tasks-registry`), written once for
 * every store that keeps it (the memory store, file-store's and postgres-store's): a question to
 * ask, a question's id, an outcome, watch's listener, the bounds of a list's questions, and the
 * error of a list with too many open questions. Each message says what was wrong, what was
 * expected and what was received (the kit's describer in the contract's wording, `by: 'type'`),
 * and never echoes a long value back (a length instead).
 *
 * The contract's error classes belong to tasks-registry, which bundles this kit, so the kit cannot
 * import them: a store hands its classes to `questionChecks` and gets the checks bound to them. An
 * asker is an agent's name, checked by the MessageStore checks' one copy (`messageChecks`).
 */
import { type MessageErrorClass, messageChecks } from './message-checks.js';
import { received } from './received.js';

/** The bounds of a list's questions, as the contract's `QuestionLimits` names them. */
export interface QuestionBounds {
  maxTextLength: number;
  maxOptions: number;
  maxOpenQuestions: number;
  keepSettledMs: number;
}

/** What a store hands `questionChecks`: the contract's error classes, and its own check of strings. */
export interface QuestionCheckOptions<Limit extends Error> {
  /** For an argument of the wrong shape, a text too long or too many options (the contract's `RegistryArgumentError`). */
  argumentError: MessageErrorClass;
  /** For a number of the right type out of range (`RegistryRangeError`). */
  rangeError: MessageErrorClass;
  /** For an ask past `maxOpenQuestions` (`QuestionLimitError`). */
  limitError: MessageErrorClass<Limit>;
  /**
   * The store's own rule for every string it keeps, run on an asker once it is an agent's name and
   * on each text (question, option, answer, reason, by) once its type and length are right
   * (postgres-store refuses U+0000 there, which its database cannot hold). Default: none.
   */
  checkString?: (caller: string, field: string, value: unknown) => void;
}

/**
 * The checks of one store, bound to its error classes. `Question` is the contract's
 * `OutgoingQuestion`, `Outcome` its `QuestionOutcome`, `Limit` its `QuestionLimitError` (the kit
 * cannot import them; the checks prove the shapes). Each function stands alone, so it can be handed on.
 */
export interface QuestionChecks<Question, Outcome, Limit extends Error> {
  /**
   * Throws unless `question` is a question to ask within `limits` whose `expiresAt` is after `now`,
   * its fields checked in the contract's order (asker, question, options, expiresAt): the argument
   * error for a wrong shape, an asker that is not an agent's name, a text too long or too many
   * options; the range error for an `expiresAt` not after `now` (or not finite).
   */
  checkOutgoingQuestion: (
    question: unknown,
    limits: Readonly<QuestionBounds>,
    now: number,
  ) => asserts question is Question;
  /** Throws the argument error unless `id` is a string (any string: one never asked reads undefined). */
  checkQuestionId: (caller: string, id: unknown) => asserts id is string;
  /**
   * Throws the argument error unless `outcome` is an outcome: `answered` with an `answer` that is a
   * string (at most `maxTextLength`) or null, or `declined` / `withdrawn` with an optional `reason`
   * (at most `maxTextLength`); `by`, when given, a string of at most `maxTextLength`.
   */
  checkOutcome: (outcome: unknown, limits: Readonly<QuestionBounds>) => asserts outcome is Outcome;
  /** Throws the argument error unless `listener` is a function (watch throws, it does not reject). */
  checkListener: (listener: unknown) => asserts listener is () => void;
  /** The limit error of an ask to a list that holds `limit` open questions already. */
  tooManyOpen: (limit: number) => Limit;
  /**
   * The bounds a store keeps: `defaults` with `given` over them, each checked (`maxTextLength`,
   * `maxOptions`, `maxOpenQuestions` positive integers, `keepSettledMs` a positive number), frozen;
   * `defaults` itself when nothing is given. `caller` and `field` name where they were given
   * (`openPostgresLists`, `questionLimits`); without `field` they are the caller's whole argument.
   * An array is refused as any other non-object is.
   */
  resolveLimits: (
    caller: string,
    field: string | undefined,
    given: unknown,
    defaults: Readonly<QuestionBounds>,
  ) => Readonly<QuestionBounds>;
}

/** The states an outcome may settle a question with. */
const OUTCOME_STATES: ReadonlySet<string> = new Set(['answered', 'declined', 'withdrawn']);

/** The bounds in the order they are checked; `true`: an integer. */
const BOUNDS: readonly (readonly [keyof QuestionBounds, boolean])[] = [
  ['maxTextLength', true],
  ['maxOptions', true],
  ['maxOpenQuestions', true],
  ['keepSettledMs', false],
];

/**
 * The QuestionStore contract's checks, throwing the store's own error classes.
 *
 * @example
 * const checks: QuestionChecks<OutgoingQuestion, QuestionOutcome, QuestionLimitError> = questionChecks({
 *   argumentError: RegistryArgumentError, rangeError: RegistryRangeError, limitError: QuestionLimitError,
 * });
 * checks.checkOutcome({ state: 'answered', answer: 7 }, DEFAULT_QUESTION_LIMITS);
 * // RegistryArgumentError: settle: answer: expected a string or null (a blank answer), received number
 */
export function questionChecks<Question, Outcome, Limit extends Error>(
  options: QuestionCheckOptions<Limit>,
): QuestionChecks<Question, Outcome, Limit> {
  const bound = new Checks(options);
  return {
    checkOutgoingQuestion: (question, limits, now) => bound.outgoing(question, limits, now),
    checkQuestionId: (caller, id) => bound.id(caller, id),
    checkOutcome: (outcome, limits) => bound.outcome(outcome, limits),
    checkListener: (listener) => bound.listener(listener),
    tooManyOpen: (limit) =>
      new options.limitError(
        `ask: the list holds ${limit} open questions, the most allowed; it takes none until one is settled or expires`,
      ),
    resolveLimits: (caller, field, given, defaults) => bound.limits(caller, field, given, defaults),
  };
}

/** A received value in the contract's wording (`by: 'type'`). */
function shown(value: unknown): string {
  return received(value, { by: 'type' });
}

/** The checks, bound to one store's error classes and string rule. */
class Checks {
  private readonly argumentError: MessageErrorClass;
  private readonly rangeError: MessageErrorClass;
  private readonly checkString: QuestionCheckOptions<Error>['checkString'];
  // An asker is an agent's name: the MessageStore checks' one copy, with the store's string rule.
  private readonly checkAgent: (caller: string, field: string, value: unknown) => void;

  constructor(options: QuestionCheckOptions<Error>) {
    this.argumentError = options.argumentError;
    this.rangeError = options.rangeError;
    this.checkString = options.checkString;
    this.checkAgent = messageChecks(options).checkAgent;
  }

  /** Throws unless `value` is a string of at most `max` characters (or absent, when `optional`), then the store's rule. */
  private text(caller: string, field: string, value: unknown, max: number, optional = false): void {
    if (optional && value === undefined) return;
    if (typeof value !== 'string') {
      const expected = optional ? 'a string or nothing' : 'a string';
      throw new this.argumentError(`${caller}: ${field}: expected ${expected}, received ${shown(value)}`);
    }
    if (value.length > max) {
      throw new this.argumentError(
        `${caller}: ${field}: expected at most ${max} characters, received a string of ${value.length}`,
      );
    }
    this.checkString?.(caller, field, value);
  }

  /** Throws unless `value` is an object (not null, not an array), `what` saying which. */
  private object(caller: string, what: string, value: unknown): asserts value is Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new this.argumentError(`${caller}: expected ${what}, received ${shown(value)}`);
    }
  }

  outgoing(question: unknown, limits: Readonly<QuestionBounds>, now: number): void {
    this.object('ask', 'a question { asker, question, options, expiresAt }', question);
    this.checkAgent('ask', 'asker', question.asker);
    this.text('ask', 'question', question.question, limits.maxTextLength);
    const { options } = question;
    if (!Array.isArray(options)) {
      throw new this.argumentError(
        `ask: options: expected an array of strings (empty for a free answer), received ${shown(options)}`,
      );
    }
    if (options.length > limits.maxOptions) {
      throw new this.argumentError(
        `ask: options: expected at most ${limits.maxOptions} options, received ${options.length}`,
      );
    }
    // `forEach` skips a sparse array's holes; `entries` reads each as undefined.
    const each = (option: unknown, index: number): void => {
      this.text('ask', `options[${index}]`, option, limits.maxTextLength);
    };
    // Every index, holes too: a sparse array's hole is no string (it would be stored as nothing).
    for (const [index, option] of options.entries()) each(option, index);
    const { expiresAt } = question;
    if (typeof expiresAt !== 'number') {
      throw new this.argumentError(
        `ask: expiresAt: expected a time in ms since the epoch, received ${shown(expiresAt)}`,
      );
    }
    if (!Number.isFinite(expiresAt) || !(expiresAt > now)) {
      throw new this.rangeError(`ask: expiresAt: expected a time after now (${now}), received ${expiresAt}`);
    }
  }

  id(caller: string, id: unknown): void {
    if (typeof id !== 'string') {
      throw new this.argumentError(`${caller}: id: expected a question's id (a string), received ${shown(id)}`);
    }
  }

  outcome(outcome: unknown, limits: Readonly<QuestionBounds>): void {
    this.object(
      'settle',
      'an outcome { state: "answered", answer } or { state: "declined" | "withdrawn", reason? }',
      outcome,
    );
    if (typeof outcome.state !== 'string' || !OUTCOME_STATES.has(outcome.state)) {
      throw new this.argumentError(
        `settle: state: expected "answered", "declined" or "withdrawn", received ${shown(outcome.state)}`,
      );
    }
    if (outcome.state === 'answered') {
      if (outcome.answer !== null && typeof outcome.answer !== 'string') {
        throw new this.argumentError(
          `settle: answer: expected a string or null (a blank answer), received ${shown(outcome.answer)}`,
        );
      }
      if (outcome.answer !== null) this.text('settle', 'answer', outcome.answer, limits.maxTextLength);
    } else {
      this.text('settle', 'reason', outcome.reason, limits.maxTextLength, true);
    }
    this.text('settle', 'by', outcome.by, limits.maxTextLength, true);
  }

  listener(listener: unknown): void {
    if (typeof listener !== 'function') {
      throw new this.argumentError(`watch: listener: expected a function, received ${shown(listener)}`);
    }
  }

  limits(
    caller: string,
    field: string | undefined,
    given: unknown,
    defaults: Readonly<QuestionBounds>,
  ): Readonly<QuestionBounds> {
    if (given === undefined) return defaults;
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      const where = field === undefined ? '' : `${field}: `;
      throw new this.argumentError(`${caller}: ${where}expected an object or nothing, received ${shown(given)}`);
    }
    const bounds = given as Partial<Record<keyof QuestionBounds, unknown>>;
    const resolved: QuestionBounds = { ...defaults };
    for (const [name, integer] of BOUNDS) {
      const value = bounds[name];
      if (value === undefined) continue;
      const expected = integer ? 'a positive integer' : 'a positive number';
      const where = `${caller}: ${field === undefined ? '' : `${field}.`}${name}`;
      if (typeof value !== 'number') {
        throw new this.argumentError(`${where}: expected ${expected}, received ${shown(value)}`);
      }
      if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
        throw new this.rangeError(`${where}: expected ${expected}, received ${value}`);
      }
      resolved[name] = value;
    }
    return Object.freeze(resolved);
  }
}
