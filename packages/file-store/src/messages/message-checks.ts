/**
 * What the message store is given, checked as the MessageStore contract of @raider/tasks-registry
 * says: a RegistryArgumentError (a RegistryRangeError for a number out of range) for an argument of
 * the wrong shape, a MessageLimitError for a text too long or a full inbox; each message says what
 * was wrong, what was expected and what was received, and never echoes a long value back.
 */
import { received as describe } from '@raider/kit/received';
import {
  DEFAULT_MESSAGE_LIMITS,
  MessageLimitError,
  type MessageLimits,
  type OutgoingMessage,
  RegistryArgumentError,
  RegistryRangeError,
  type TakeOptions,
} from '@raider/tasks-registry';

/** The longest agent name, in characters (the contract's). */
const MAX_AGENT_LENGTH = 200;

/**
 * A received value: the kit's one describer in the MessageStore contract's wording (`by: 'type'`,
 * as the memory store words it): JSON of a string up to 80 characters, else its size; any other
 * value by its type.
 */
export function received(value: unknown): string {
  return describe(value, { by: 'type' });
}

/** Throws a RegistryArgumentError unless `value` is an agent's name (a non-empty string of at most 200 characters). */
export function checkAgent(caller: string, field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_AGENT_LENGTH) {
    throw new RegistryArgumentError(
      `${caller}: ${field}: expected an agent's name (a non-empty string of at most ${MAX_AGENT_LENGTH} characters), received ${received(value)}`,
    );
  }
}

/** Checks a message to send: its shape (RegistryArgumentError), then its text's length (MessageLimitError). */
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
  for (const field of ['about', 'label', 'taskId']) {
    if (fields[field] !== undefined && typeof fields[field] !== 'string') {
      throw new RegistryArgumentError(
        `send: ${field}: expected a string or nothing, received ${received(fields[field])}`,
      );
    }
  }
  if (fields.text.length > limits.maxTextLength) {
    throw new MessageLimitError(
      `send: text: expected at most ${limits.maxTextLength} characters, received ${fields.text.length}`,
    );
  }
}

/** The MessageLimitError of a send to `agent`'s inbox, which holds as many messages as it may. */
export function fullInbox(agent: string, limits: Readonly<MessageLimits>): MessageLimitError {
  return new MessageLimitError(
    `send: the inbox of ${received(agent)} holds ${limits.maxInboxMessages} messages, the most allowed (those taken count until done); it takes none until some are done`,
  );
}

/** Throws unless `value` is absent or a positive (integer, when `integer`) number. */
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

/** Checks a take's options: an object or nothing, `leaseMs` a positive number, `max` a positive integer. */
export function checkTakeOptions(options: unknown): asserts options is TakeOptions | undefined {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new RegistryArgumentError(`take: options: expected an object or nothing, received ${received(options)}`);
  }
  const { leaseMs, max } = options as Record<string, unknown>;
  checkPositive('take', 'leaseMs', leaseMs, false);
  checkPositive('take', 'max', max, true);
}

/** Checks watch's arguments: an agent's name and a function. */
export function checkWatch(agent: unknown, onMessage: unknown): void {
  checkAgent('watch', 'agent', agent);
  if (typeof onMessage !== 'function') {
    throw new RegistryArgumentError(`watch: onMessage: expected a function, received ${received(onMessage)}`);
  }
}

/**
 * The bounds of a list's inboxes: `DEFAULT_MESSAGE_LIMITS` with `given` over them, each checked
 * (`maxTextLength`, `maxInboxMessages` positive integers; `maxAgeMs` a positive number).
 */
export function messageLimits(given: Partial<MessageLimits> | undefined): Readonly<MessageLimits> {
  if (given === undefined) return DEFAULT_MESSAGE_LIMITS;
  if (typeof given !== 'object' || given === null) {
    throw new RegistryArgumentError(`messageLimits: expected an object or nothing, received ${received(given)}`);
  }
  checkPositive('messageLimits', 'maxTextLength', given.maxTextLength, true);
  checkPositive('messageLimits', 'maxInboxMessages', given.maxInboxMessages, true);
  checkPositive('messageLimits', 'maxAgeMs', given.maxAgeMs, false);
  return Object.freeze({
    maxTextLength: given.maxTextLength ?? DEFAULT_MESSAGE_LIMITS.maxTextLength,
    maxInboxMessages: given.maxInboxMessages ?? DEFAULT_MESSAGE_LIMITS.maxInboxMessages,
    maxAgeMs: given.maxAgeMs ?? DEFAULT_MESSAGE_LIMITS.maxAgeMs,
  });
}
