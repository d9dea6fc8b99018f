/**
 * The argument checks of the MessageStore contract (`@raider/tasks-registry`), written once for
 * every store that keeps it (the memory store, file-store's and postgres-store's): an agent's
 * name, a message to send, a take's options, watch's arguments, the bounds of an inbox, and the
 * error of a full inbox. Each message says what was wrong, what was expected and what was
 * received (the kit's describer in the contract's wording, `by: 'type'`), and never echoes a long
 * value back.
 *
 * The contract's error classes belong to tasks-registry, which bundles this kit, so the kit cannot
 * import them: a store hands its classes to `messageChecks` and gets the checks bound to them.
 * Beside the checks, `storedFields`: the form a store keeps a checked message in.
 */
import { received as describe } from './received.js';

/** An error class of the contract, made with a message (a class from `codedErrors`). */
export type MessageErrorClass<E extends Error = Error> = new (message: string) => E;

/** The bounds of an inbox, as the contract's `MessageLimits` names them. */
export interface InboxLimits {
  maxTextLength: number;
  maxInboxMessages: number;
  maxAgeMs: number;
}

/** What a store hands `messageChecks`: the contract's error classes, and its own check of strings. */
export interface MessageCheckOptions<Limit extends Error> {
  /** For an argument of the wrong shape (the contract's `RegistryArgumentError`). */
  argumentError: MessageErrorClass;
  /** For a number of the right type out of range (`RegistryRangeError`). */
  rangeError: MessageErrorClass;
  /** For a text too long or a full inbox (`MessageLimitError`). */
  limitError: MessageErrorClass<Limit>;
  /**
   * The store's own rule for every string it keeps, run on an agent's name once it is one and on
   * a message's texts once its shape is right (postgres-store refuses U+0000 there, which its
   * database cannot hold). Default: none.
   */
  checkString?: (caller: string, field: string, value: unknown) => void;
}

/**
 * The checks of one store, bound to its error classes. `Message` is the contract's
 * `OutgoingMessage`, `Take` its `TakeOptions`, `Limit` its `MessageLimitError` (the kit cannot
 * import them; the checks prove the shapes). Each function stands alone, so it can be handed on.
 */
export interface MessageChecks<Message, Take, Limit extends Error> {
  /** A received value in the contract's wording: `nothing`, a string as JSON up to 80 characters, else its size; any other value by its type. */
  received: (value: unknown) => string;
  /** Throws unless `value` is an agent's name: a non-empty string of at most 200 characters (and the store's string rule). */
  checkAgent: (caller: string, field: string, value: unknown) => asserts value is string;
  /**
   * Checks a message to send: its shape (the argument error), then its text's length against
   * `limits.maxTextLength` (the limit error). The inbox's bound is the store's to check: it knows
   * what waits.
   */
  checkOutgoing: (message: unknown, limits: Readonly<InboxLimits>) => asserts message is Message;
  /** Checks a take's options: an object or nothing; `leaseMs` a positive number, `max` a positive integer. */
  checkTakeOptions: (options: unknown) => asserts options is Take | undefined;
  /** Checks watch's arguments: an agent's name and a function. */
  checkWatch: (agent: unknown, onMessage: unknown) => void;
  /**
   * The bounds a store keeps: `defaults` with `given` over them, each checked (`maxTextLength`,
   * `maxInboxMessages` positive integers, `maxAgeMs` a positive number). `caller` and `field` name
   * where they were given (`openPostgresLists`, `messageLimits`); without `field` they are the
   * caller's whole argument.
   */
  resolveLimits: (
    caller: string,
    field: string | undefined,
    given: unknown,
    defaults: Readonly<InboxLimits>,
  ) => Readonly<InboxLimits>;
  /**
   * The limit error of a send to `agent`'s inbox, which holds `limit` messages already. `freedBy`
   * says what makes room: a take (`'taken'`, the default), or only a done, where what a take
   * reserved still counts (`'done'`, file-store's count).
   */
  fullInbox: (agent: string, limit: number, freedBy?: 'taken' | 'done') => Limit;
}

/** The longest agent name, in characters (the contract's bound). */
export const MAX_AGENT_NAME_LENGTH = 200;

/** A message's optional texts, each a string or nothing. */
const OPTIONAL_TEXTS = ['about', 'label', 'taskId'] as const;

/**
 * The MessageStore contract's checks, throwing the store's own error classes.
 *
 * @example
 * const checks: MessageChecks<OutgoingMessage, TakeOptions, MessageLimitError> = messageChecks({
 *   argumentError: RegistryArgumentError, rangeError: RegistryRangeError, limitError: MessageLimitError,
 * });
 * checks.checkOutgoing({ to: 'bob', text: 7, notification: false }, DEFAULT_MESSAGE_LIMITS);
 * // RegistryArgumentError: send: text: expected a string, received number
 */
export function messageChecks<Message, Take, Limit extends Error>(
  options: MessageCheckOptions<Limit>,
): MessageChecks<Message, Take, Limit> {
  return {
    received,
    checkAgent: (caller, field, value) => checkAgent(options, caller, field, value),
    checkOutgoing: (message, limits) => checkOutgoing(options, message, limits),
    checkTakeOptions: (takeOptions) => checkTakeOptions(options, takeOptions),
    checkWatch: (agent, onMessage) => checkWatch(options, agent, onMessage),
    resolveLimits: (caller, field, given, defaults) => resolveLimits(options, caller, field, given, defaults),
    fullInbox: (agent, limit, freedBy = 'taken') => fullInbox(options, agent, limit, freedBy),
  };
}

/** A received value in the contract's wording (`by: 'type'`). */
function received(value: unknown): string {
  return describe(value, { by: 'type' });
}

type Errors = MessageCheckOptions<Error>;

function checkAgent(errors: Errors, caller: string, field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_AGENT_NAME_LENGTH) {
    throw new errors.argumentError(
      `${caller}: ${field}: expected an agent's name (a non-empty string of at most ${MAX_AGENT_NAME_LENGTH} characters), received ${received(value)}`,
    );
  }
  errors.checkString?.(caller, field, value);
}

function checkOutgoing(errors: Errors, message: unknown, limits: Readonly<InboxLimits>): void {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new errors.argumentError(
      `send: expected a message { to, text, notification, ... }, received ${received(message)}`,
    );
  }
  const fields = message as Record<string, unknown>;
  checkAgent(errors, 'send', 'to', fields.to);
  if (fields.from !== undefined) checkAgent(errors, 'send', 'from', fields.from);
  if (typeof fields.text !== 'string') {
    throw new errors.argumentError(`send: text: expected a string, received ${received(fields.text)}`);
  }
  if (typeof fields.notification !== 'boolean') {
    throw new errors.argumentError(
      `send: notification: expected true or false, received ${received(fields.notification)}`,
    );
  }
  for (const field of OPTIONAL_TEXTS) {
    if (fields[field] !== undefined && typeof fields[field] !== 'string') {
      throw new errors.argumentError(
        `send: ${field}: expected a string or nothing, received ${received(fields[field])}`,
      );
    }
  }
  for (const field of ['text', ...OPTIONAL_TEXTS]) errors.checkString?.('send', field, fields[field]);
  if (fields.text.length > limits.maxTextLength) {
    throw new errors.limitError(
      `send: text: expected at most ${limits.maxTextLength} characters, received ${fields.text.length}`,
    );
  }
}

/**
 * Throws unless `value` is absent or a positive number (an integer when `integer`): the argument
 * error for a non-number, the range error for one out of range.
 */
function checkPositive(errors: Errors, caller: string, field: string, value: unknown, integer: boolean): void {
  if (value === undefined) return;
  const expected = integer ? 'a positive integer' : 'a positive number';
  if (typeof value !== 'number') {
    throw new errors.argumentError(`${caller}: ${field}: expected ${expected}, received ${received(value)}`);
  }
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new errors.rangeError(`${caller}: ${field}: expected ${expected}, received ${value}`);
  }
}

function checkTakeOptions(errors: Errors, options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new errors.argumentError(`take: options: expected an object or nothing, received ${received(options)}`);
  }
  const { leaseMs, max } = options as Record<string, unknown>;
  checkPositive(errors, 'take', 'leaseMs', leaseMs, false);
  checkPositive(errors, 'take', 'max', max, true);
}

function checkWatch(errors: Errors, agent: unknown, onMessage: unknown): void {
  checkAgent(errors, 'watch', 'agent', agent);
  if (typeof onMessage !== 'function') {
    throw new errors.argumentError(`watch: onMessage: expected a function, received ${received(onMessage)}`);
  }
}

function resolveLimits(
  errors: Errors,
  caller: string,
  field: string | undefined,
  given: unknown,
  defaults: Readonly<InboxLimits>,
): Readonly<InboxLimits> {
  if (given === undefined) return defaults;
  if (typeof given !== 'object' || given === null) {
    const where = field === undefined ? '' : `${field}: `;
    throw new errors.argumentError(`${caller}: ${where}expected an object or nothing, received ${received(given)}`);
  }
  const bounds = given as Partial<Record<keyof InboxLimits, unknown>>;
  const prefix = field === undefined ? '' : `${field}.`;
  checkPositive(errors, caller, `${prefix}maxTextLength`, bounds.maxTextLength, true);
  checkPositive(errors, caller, `${prefix}maxInboxMessages`, bounds.maxInboxMessages, true);
  checkPositive(errors, caller, `${prefix}maxAgeMs`, bounds.maxAgeMs, false);
  return Object.freeze({
    maxTextLength: (bounds.maxTextLength as number | undefined) ?? defaults.maxTextLength,
    maxInboxMessages: (bounds.maxInboxMessages as number | undefined) ?? defaults.maxInboxMessages,
    maxAgeMs: (bounds.maxAgeMs as number | undefined) ?? defaults.maxAgeMs,
  });
}

function fullInbox<Limit extends Error>(
  errors: MessageCheckOptions<Limit>,
  agent: string,
  limit: number,
  freedBy: 'taken' | 'done',
): Limit {
  const reserved = freedBy === 'done' ? ' (those taken count until done)' : '';
  return new errors.limitError(
    `send: the inbox of ${received(agent)} holds ${limit} messages, the most allowed${reserved}; it takes none until some are ${freedBy}`,
  );
}

/** The fields of a message the contract keeps (its `OutgoingMessage`), as `storedFields` reads them. */
export interface MessageFields {
  readonly to: string;
  readonly from?: string;
  readonly text: string;
  readonly notification: boolean;
  readonly about?: string;
  readonly label?: string;
  readonly taskId?: string;
}

/**
 * The stored form of a checked message but its id: only the contract's fields, in its order (to,
 * from, text, notification, about, label, taskId), the optional ones left out when absent, then
 * `sentAt`. Anything else a caller put on the message is not kept.
 */
export function storedFields(message: MessageFields, sentAt: number): MessageFields & { readonly sentAt: number } {
  return {
    to: message.to,
    ...(message.from === undefined ? {} : { from: message.from }),
    text: message.text,
    notification: message.notification,
    ...(message.about === undefined ? {} : { about: message.about }),
    ...(message.label === undefined ? {} : { label: message.label }),
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
    sentAt,
  };
}
