/**
 * Where the queue of an agent team lives when it must outlive one process: the messages of a
 * list's agents (the registry's queue, per recipient: plain messages and notifications), kept by a
 * store (memory here; a list folder in @raider/file-store; PostgreSQL in @raider/postgres-store)
 * so that servers on one list, on one machine or many, hand each agent what was sent to it.
 *
 * Delivery is at least once, in order per inbox, never silently dropped: a take reserves what it
 * takes (a lease) and the messages are removed only when the taker says they were handed on
 * (`done`). A taker that dies before `done` leaves them to the next take once its lease lapses
 * (the one duplicate this allows: the answer that carried them may have reached its client). Two
 * takers for one agent never both hold the same message.
 */

/** A message waiting in an agent's inbox. */
export interface StoredMessage {
  /** The store's id of the message: unique in the list, increasing in the order the inbox got them. */
  readonly id: string;
  /** The agent it is for (an agent's name: the `owner` it uses on tasks). */
  readonly to: string;
  /** The agent that sent it (plain messages); absent for what raider sends itself. */
  readonly from?: string;
  /** Its text: a plain message's words, or a notification's `<task-notification>` text. */
  readonly text: string;
  /** True for a notification (the registry's `notify`), false for a plain message (`post`). */
  readonly notification: boolean;
  /** The entry or task a notification is about (the `id` of the registry's `notify`). */
  readonly about?: string;
  /** The line a surface shows for a notification (the `label` of the registry's `notify`). */
  readonly label?: string;
  /** The task a plain message is about, when its sender named one. */
  readonly taskId?: string;
  /** When it was sent, in ms since the epoch. */
  readonly sentAt: number;
}

/** What a sender gives: the message without what the store assigns. */
export type OutgoingMessage = Omit<StoredMessage, 'id' | 'sentAt'>;

/** The bounds of an inbox. */
export interface MessageLimits {
  /** The longest text, in characters as JavaScript counts them (`text.length`; default 64 000). */
  maxTextLength: number;
  /**
   * The most messages waiting for one agent (default 1 000), counting those a take reserved and
   * has not marked done; a send past it is refused.
   */
  maxInboxMessages: number;
  /** How long a message waits before it is dropped untaken, in ms (default 7 days). */
  maxAgeMs: number;
}

/** The default bounds of an inbox. */
export const DEFAULT_MESSAGE_LIMITS: Readonly<MessageLimits> = Object.freeze({
  maxTextLength: 64_000,
  maxInboxMessages: 1_000,
  maxAgeMs: 7 * 24 * 3600 * 1000,
});

/** Messages taken for an agent, reserved until they are handed on (`done`) or given back (`release`). */
export interface MessageDelivery {
  /** The messages, oldest first (empty when nothing waited). */
  readonly messages: readonly StoredMessage[];
  /**
   * Removes the taken messages: call once the answer that carries them was handed to the
   * transport. Idempotent. Rejects when the store cannot remove them (they are then taken again
   * after the lease: at least once). A message another take holds by then (this lease lapsed and
   * it was taken again) stays that take's.
   */
  done(): Promise<void>;
  /**
   * Gives the messages back at once (the answer could not be sent): the next take gets them, first.
   * Does nothing after `done`, a second time, or for a message another take holds by then.
   */
  release(): Promise<void>;
}

/** How a take reserves what it takes. */
export interface TakeOptions {
  /** How long the taken messages stay reserved for this taker, in ms, a positive number (default 30 000). */
  leaseMs?: number;
  /** The most messages one take takes, a positive integer (default: all that wait). */
  max?: number;
}

/**
 * The messages of one list's agents. Every method may reject (a full disk, a lost database):
 * a rejected `send` was not acknowledged and changed nothing another take can see.
 *
 * An agent's name is a non-empty string of at most 200 characters. A bad argument (a name that is
 * not one, a text that is not a string, a `notification` that is not a boolean) makes the async
 * methods reject, never throw at once, with a RegistryArgumentError (a RegistryRangeError for a
 * `leaseMs` or `max` out of range), changing nothing; `watch` throws it.
 * `@raider/tasks-registry/conformance` checks a store against all of this.
 */
export interface MessageStore {
  /**
   * Queues `message` for `message.to`; resolves with it as stored once it is durable (the send is
   * acknowledged). Rejects with a MessageLimitError for a text too long or a full inbox.
   */
  send(message: OutgoingMessage): Promise<StoredMessage>;
  /**
   * Takes what waits for `agent`, oldest first, reserved for `options.leaseMs`: no other take gets
   * these messages while the lease holds. Messages older than the inbox's `maxAgeMs` are dropped.
   */
  take(agent: string, options?: TakeOptions): Promise<MessageDelivery>;
  /** What waits for `agent` and is not reserved by a take, oldest first, without taking it. */
  peek(agent: string): Promise<StoredMessage[]>;
  /**
   * Calls `onMessage` when something may have arrived for `agent` (sent through this store or,
   * for a shared store, by another process). Returns a function that stops it.
   */
  watch(agent: string, onMessage: () => void): () => void;
}
