/**
 * What the message store is given, checked as the MessageStore contract of @raider/tasks-registry
 * says, by the kit's one copy of the contract's checks (`@raider/kit/message-checks`) bound to the
 * contract's errors: a RegistryArgumentError (a RegistryRangeError for a number out of range) for
 * an argument of the wrong shape, a MessageLimitError for a text too long or a full inbox; each
 * message says what was wrong, what was expected and what was received, and never echoes a long
 * value back.
 */
import { type MessageChecks, messageChecks } from '@raider/kit/message-checks';
import {
  DEFAULT_MESSAGE_LIMITS,
  MessageLimitError,
  type MessageLimits,
  type OutgoingMessage,
  RegistryArgumentError,
  RegistryRangeError,
  type TakeOptions,
} from '@raider/tasks-registry';

const checks: MessageChecks<OutgoingMessage, TakeOptions, MessageLimitError> = messageChecks({
  argumentError: RegistryArgumentError,
  rangeError: RegistryRangeError,
  limitError: MessageLimitError,
});

// Assertion functions are called through names with a declared type (TypeScript's rule).
export const checkAgent: typeof checks.checkAgent = checks.checkAgent;
export const checkOutgoing: typeof checks.checkOutgoing = checks.checkOutgoing;
export const checkTakeOptions: typeof checks.checkTakeOptions = checks.checkTakeOptions;
export const { checkWatch } = checks;

/**
 * The MessageLimitError of a send to `agent`'s inbox, which holds as many messages as it may:
 * what a take reserved counts until it is done.
 */
export function fullInbox(agent: string, limits: Readonly<MessageLimits>): MessageLimitError {
  return checks.fullInbox(agent, limits.maxInboxMessages, 'done');
}

/**
 * The bounds of a list's inboxes: `DEFAULT_MESSAGE_LIMITS` with `given` over them, each checked
 * (`maxTextLength`, `maxInboxMessages` positive integers; `maxAgeMs` a positive number).
 */
export function messageLimits(given: Partial<MessageLimits> | undefined): Readonly<MessageLimits> {
  return checks.resolveLimits('messageLimits', undefined, given, DEFAULT_MESSAGE_LIMITS);
}
