/**
 * The checks of what a MessageStore is given (agent names, messages, take options, limits), bound
 * to this package's error classes: the kit's one copy of the contract's checks
 * (`@raider/kit/message-checks`), whose messages say what was wrong, what was expected and what
 * was received, and never echo a huge value back. Private to the package: the memory store and
 * its tests use them.
 */
import { type MessageChecks, messageChecks } from '@raider/kit/message-checks';
import { MessageLimitError, RegistryArgumentError, RegistryRangeError } from './errors.js';
import { DEFAULT_MESSAGE_LIMITS, type MessageLimits, type OutgoingMessage, type TakeOptions } from './message-store.js';

const checks: MessageChecks<OutgoingMessage, TakeOptions, MessageLimitError> = messageChecks({
  argumentError: RegistryArgumentError,
  rangeError: RegistryRangeError,
  limitError: MessageLimitError,
});

// Assertion functions are called through names with a declared type (TypeScript's rule).
export const checkAgent: typeof checks.checkAgent = checks.checkAgent;
export const checkOutgoing: typeof checks.checkOutgoing = checks.checkOutgoing;
export const checkTakeOptions: typeof checks.checkTakeOptions = checks.checkTakeOptions;
export const { checkWatch, received } = checks;

/** The MessageLimitError of a send to an inbox that holds `limit` messages already. */
export function fullInboxError(agent: string, limit: number): MessageLimitError {
  return checks.fullInbox(agent, limit);
}

/**
 * The limits a store keeps: `DEFAULT_MESSAGE_LIMITS` with the given ones over them, each checked
 * (`maxTextLength` and `maxInboxMessages` positive integers, `maxAgeMs` a positive number).
 */
export function resolveLimits(caller: string, limits: unknown): Readonly<MessageLimits> {
  return checks.resolveLimits(caller, 'limits', limits, DEFAULT_MESSAGE_LIMITS);
}
