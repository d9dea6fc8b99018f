/**
 * The checks of what the message store is given, before anything reaches the database: the
 * MessageStore contract's argument rules (`@raider/tasks-registry`'s errors, worded as its memory
 * store words them, so a caller sees one contract whatever the store).
 */
import { received as describe } from '@raider/kit/received';
import {
  MessageLimitError,
  type MessageLimits,
  type OutgoingMessage,
  RegistryArgumentError,
  RegistryRangeError,
  type TakeOptions,
} from '@raider/tasks-registry';

/** The longest agent name, in characters (the contract's bound). */
export const MAX_AGENT_NAME_LENGTH = 200;

/**
 * A received value for a message: the kit's one describer in the MessageStore contract's wording
 * (`by: 'type'`, as the memory store words it): `nothing`, a string as JSON up to 80 characters,
 * else its size or type.
 */
export function received(value: unknown): string {
  return describe(value, { by: 'type' });
}

/**
 * Throws a RegistryArgumentError when the string `value` holds U+0000, which PostgreSQL's text
 * cannot (refused here, the field named, rather than by the database).
 */
export function checkNoNul(caller: string, field: string, value: unknown): void {
  const at = typeof value === 'string' ? value.indexOf('\u0000') : -1;
  if (at >= 0) {
    throw new RegistryArgumentError(
      `${caller}: ${field}: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at ${at}`,
    );
  }
}

/**
 * Throws a RegistryArgumentError unless `value` is an agent's name: a non-empty string of at most
 * 200 characters (without U+0000).
 */
export function checkAgent(caller: string, field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_AGENT_NAME_LENGTH) {
    throw new RegistryArgumentError(
      `${caller}: ${field}: expected an agent's name (a non-empty string of at most ${MAX_AGENT_NAME_LENGTH} characters), received ${received(value)}`,
    );
  }
  checkNoNul(caller, field, value);
}

/**
 * Checks a message to send: a RegistryArgumentError for one of the wrong shape, a
 * MessageLimitError for a text longer than `limits.maxTextLength` (the inbox's bound is checked
 * in the send's transaction, where what waits is known).
 */
export function checkOutgoing(message: unknown, limits: Readonly<MessageLimits>): asserts message is OutgoingMessage {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new RegistryArgumentError(
      `send: expected a message { to, text, notification, ... }, received ${received(message)}`,
    );
  }
  const fields = message as Record<string, unknown>;
  checkAgent('send', 'to', fields.to);
  if (fields.from !== undefined) checkAgent('send', 'from', fields.from);
  if (typeof fields.text !== 'string') {
    throw new RegistryArgumentError(`send: text: expected a string, received ${received(fields.text)}`);
  }
  if (typeof fields.notification !== 'boolean') {
    throw new RegistryArgumentError(
      `send: notification: expected true or false, received ${received(fields.notification)}`,
    );
  }
  for (const field of ['about', 'label', 'taskId'] as const) {
    if (fields[field] !== undefined && typeof fields[field] !== 'string') {
      throw new RegistryArgumentError(
        `send: ${field}: expected a string or nothing, received ${received(fields[field])}`,
      );
    }
  }
  for (const field of ['text', 'about', 'label', 'taskId'] as const) checkNoNul('send', field, fields[field]);
  if (fields.text.length > limits.maxTextLength) {
    throw new MessageLimitError(
      `send: text: expected at most ${limits.maxTextLength} characters, received ${fields.text.length}`,
    );
  }
}

/** The MessageLimitError of a send to an inbox that holds `limit` messages already. */
export function fullInboxError(agent: string, limit: number): MessageLimitError {
  return new MessageLimitError(
    `send: the inbox of ${received(agent)} holds ${limit} messages, the most allowed; it takes none until some are taken`,
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

/** Checks a take's options: an object or nothing; `leaseMs` a positive number, `max` a positive integer. */
export function checkTakeOptions(options: unknown): asserts options is TakeOptions | undefined {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new RegistryArgumentError(`take: options: expected an object or nothing, received ${received(options)}`);
  }
  const { leaseMs, max } = options as Record<string, unknown>;
  checkPositive('take', 'leaseMs', leaseMs, false);
  checkPositive('take', 'max', max, true);
}

/** Throws a RegistryArgumentError unless `onMessage` is a function. */
export function checkWatcher(onMessage: unknown): asserts onMessage is () => void {
  if (typeof onMessage !== 'function') {
    throw new RegistryArgumentError(`watch: onMessage: expected a function, received ${received(onMessage)}`);
  }
}

/**
 * The limits of `openPostgresLists({ messageLimits })`: `defaults` with the given ones over them,
 * `maxTextLength` and `maxInboxMessages` positive integers, `maxAgeMs` a positive number.
 */
export function resolveLimits(defaults: Readonly<MessageLimits>, limits: unknown): Readonly<MessageLimits> {
  if (limits === undefined) return defaults;
  if (typeof limits !== 'object' || limits === null) {
    throw new RegistryArgumentError(
      `openPostgresLists: messageLimits: expected an object or nothing, received ${received(limits)}`,
    );
  }
  const given = limits as Partial<Record<keyof MessageLimits, unknown>>;
  const caller = 'openPostgresLists';
  checkPositive(caller, 'messageLimits.maxTextLength', given.maxTextLength, true);
  checkPositive(caller, 'messageLimits.maxInboxMessages', given.maxInboxMessages, true);
  checkPositive(caller, 'messageLimits.maxAgeMs', given.maxAgeMs, false);
  return Object.freeze({
    maxTextLength: (given.maxTextLength as number | undefined) ?? defaults.maxTextLength,
    maxInboxMessages: (given.maxInboxMessages as number | undefined) ?? defaults.maxInboxMessages,
    maxAgeMs: (given.maxAgeMs as number | undefined) ?? defaults.maxAgeMs,
  });
}
