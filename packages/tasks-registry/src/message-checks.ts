/**
 * The checks of what a MessageStore is given (agent names, messages, take options, limits), with
 * messages that say what was wrong, what was expected and what was received, and never echo a
 * huge value back. Private to the package: the memory store and its tests use them.
 */
import { received as describe } from '@raider/kit/received';
import { MessageLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
import { DEFAULT_MESSAGE_LIMITS, type MessageLimits, type OutgoingMessage, type TakeOptions } from './message-store.js';

/** The longest agent name, in characters. */
export const MAX_AGENT_NAME_LENGTH = 200;

/**
 * A received value as this package's messages word it: the kit's one describer in the MessageStore
 * contract's wording (`by: 'type'`): `nothing` for undefined, a string as JSON up to 80 characters
 * (`"bob"`, bidi controls shown escaped), a longer one by its size (`a string of 70001
 * characters`), any other value by its type (`number`, `null`, `object`, `an array`).
 */
export function received(value: unknown): string {
  return describe(value, { by: 'type' });
}

/** Throws a RegistryArgumentError unless `value` is an agent's name: a non-empty string of at most 200 characters. */
export function checkAgent(caller: string, field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_AGENT_NAME_LENGTH) {
    throw new RegistryArgumentError(
      `${caller}: ${field}: expected an agent's name (a non-empty string of at most ${MAX_AGENT_NAME_LENGTH} characters), received ${received(value)}`,
    );
  }
}

/** Throws a RegistryArgumentError unless `value` is a string or absent. */
function checkOptionalString(caller: string, field: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'string') {
    throw new RegistryArgumentError(`${caller}: ${field}: expected a string or nothing, received ${received(value)}`);
  }
}

/**
 * Checks a message to send against the argument rules and the text bound: throws a
 * RegistryArgumentError for a message of the wrong shape, a MessageLimitError for a text longer
 * than `limits.maxTextLength`. The inbox bound is the store's to check (it knows what waits).
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
  for (const field of ['about', 'label', 'taskId'] as const) checkOptionalString('send', field, fields[field]);
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

/** Throws unless `value` is absent or a positive number (an integer when `integer`): RegistryArgumentError for a non-number, RegistryRangeError for one out of range. */
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

/**
 * The limits a store keeps: `DEFAULT_MESSAGE_LIMITS` with the given ones over them, each checked
 * (`maxTextLength` and `maxInboxMessages` positive integers, `maxAgeMs` a positive number).
 */
export function resolveLimits(caller: string, limits: unknown): Readonly<MessageLimits> {
  if (limits === undefined) return DEFAULT_MESSAGE_LIMITS;
  if (typeof limits !== 'object' || limits === null) {
    throw new RegistryArgumentError(`${caller}: limits: expected an object or nothing, received ${received(limits)}`);
  }
  const given = limits as Partial<Record<keyof MessageLimits, unknown>>;
  checkPositive(caller, 'limits.maxTextLength', given.maxTextLength, true);
  checkPositive(caller, 'limits.maxInboxMessages', given.maxInboxMessages, true);
  checkPositive(caller, 'limits.maxAgeMs', given.maxAgeMs, false);
  return Object.freeze({
    maxTextLength: (given.maxTextLength as number | undefined) ?? DEFAULT_MESSAGE_LIMITS.maxTextLength,
    maxInboxMessages: (given.maxInboxMessages as number | undefined) ?? DEFAULT_MESSAGE_LIMITS.maxInboxMessages,
    maxAgeMs: (given.maxAgeMs as number | undefined) ?? DEFAULT_MESSAGE_LIMITS.maxAgeMs,
  });
}
