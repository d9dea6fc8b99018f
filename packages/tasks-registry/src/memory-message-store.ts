/**
 * A MessageStore in this process's memory: the inboxes of one list's agents for servers that need
 * no durability (tests, one process, a demo), and the reference the durable stores are checked
 * against (`@raider/tasks-registry/conformance`). Its options are checked here; the inboxes
 * themselves are `MemoryInboxes` (memory-inboxes.ts).
 */
import { RegistryArgumentError } from './errors.js';
import { MemoryInboxes } from './memory-inboxes.js';
import { received, resolveLimits } from './message-checks.js';
import type { MessageLimits, MessageStore } from './message-store.js';

/** Options of `memoryMessageStore`. */
export interface MemoryMessageStoreOptions {
  /** The bounds of every inbox, over `DEFAULT_MESSAGE_LIMITS`. */
  limits?: Partial<MessageLimits>;
  /** The clock of `sentAt`, leases and age, in ms since the epoch (default `Date.now`). */
  now?: () => number;
}

/**
 * A MessageStore held in this process's memory: whoever holds it shares its inboxes, and they end
 * with the process. Ids count up from "1" across the list's inboxes, in the order of the sends.
 *
 * - `take` reserves what it takes for its lease (default 30 s): no other take gets those messages
 *   until `done` removes them, `release` gives them back (the next take gets them first, in their
 *   order), or the lease lapses (then the next take gets them again: at least once).
 * - Messages older than `limits.maxAgeMs` are dropped by a `take` or `peek` that comes upon them
 *   (a reserved one once its lease has ended); one that waits in a full inbox is dropped by a send.
 * - `watch` calls back, in a later microtask, after a send to the agent, a `release` that gave
 *   messages back, and a lease of the agent's messages that lapsed without `done` or `release`
 *   (timed by the real clock, also when `now` is another).
 * - A send or take costs the same whatever waits in other inboxes: a take walks only its agent's
 *   inbox (at most `maxInboxMessages`).
 *
 * @throws RegistryArgumentError / RegistryRangeError for options of the wrong shape or limits that
 * are not positive.
 *
 * @example
 * const store = memoryMessageStore({ limits: { maxInboxMessages: 100 } });
 * await store.send({ to: 'bob', from: 'alice', text: 'Also check the tests.', notification: false });
 * const delivery = await store.take('bob', { leaseMs: 10_000 });
 * // ... hand delivery.messages on, then:
 * await delivery.done();
 */
export function memoryMessageStore(options: MemoryMessageStoreOptions = {}): MessageStore {
  if (typeof options !== 'object' || options === null) {
    throw new RegistryArgumentError(
      `memoryMessageStore: expected options { limits?, now? } or nothing, received ${received(options)}`,
    );
  }
  const limits = resolveLimits('memoryMessageStore', options.limits);
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw new RegistryArgumentError(
      `memoryMessageStore: now: expected a function or nothing, received ${received(options.now)}`,
    );
  }
  const inboxes = new MemoryInboxes(limits, options.now ?? Date.now);
  // A plain object of four functions, as before the state became a class: it can be spread and its
  // functions handed on alone.
  return {
    send: (message) => inboxes.send(message),
    take: (agent, takeOptions) => inboxes.take(agent, takeOptions),
    peek: (agent) => inboxes.peek(agent),
    watch: (agent, onMessage) => inboxes.watch(agent, onMessage),
  };
}
