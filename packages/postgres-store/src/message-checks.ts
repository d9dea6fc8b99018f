/**
 * The checks of what the message store is given, before anything reaches the database: the
 * MessageStore contract's argument rules, by the kit's one copy of them
 * (`@raider/kit/message-checks`) bound to `@raider/tasks-registry`'s errors, worded as its memory
 * store words them (so a caller sees one contract whatever the store), and PostgreSQL's own rule
 * that no text holds U+0000.
 */
import { type MessageChecks, messageChecks } from '@raider/kit/message-checks';
import {
  MessageLimitError,
  type MessageLimits,
  type OutgoingMessage,
  RegistryArgumentError,
  RegistryRangeError,
  type TakeOptions,
} from '@raider/tasks-registry';

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

// Every agent name and every text of a message is also checked for U+0000.
const checks: MessageChecks<OutgoingMessage, TakeOptions, MessageLimitError> = messageChecks({
  argumentError: RegistryArgumentError,
  rangeError: RegistryRangeError,
  limitError: MessageLimitError,
  checkString: checkNoNul,
});

// Assertion functions are called through names with a declared type (TypeScript's rule).
export const checkAgent: typeof checks.checkAgent = checks.checkAgent;
export const checkOutgoing: typeof checks.checkOutgoing = checks.checkOutgoing;
export const checkTakeOptions: typeof checks.checkTakeOptions = checks.checkTakeOptions;
export const { checkWatch } = checks;

/** The MessageLimitError of a send to an inbox that holds `limit` messages already. */
export function fullInboxError(agent: string, limit: number): MessageLimitError {
  return checks.fullInbox(agent, limit);
}

/**
 * The limits of `openPostgresLists({ messageLimits })`: `defaults` with the given ones over them,
 * `maxTextLength` and `maxInboxMessages` positive integers, `maxAgeMs` a positive number.
 */
export function resolveLimits(defaults: Readonly<MessageLimits>, limits: unknown): Readonly<MessageLimits> {
  return checks.resolveLimits('openPostgresLists', 'messageLimits', limits, defaults);
}
