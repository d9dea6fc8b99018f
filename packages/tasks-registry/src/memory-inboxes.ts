/**
 * The state of one memory store (`memoryMessageStore`): the messages by agent, the leases of the
 * takes that hold them, the watchers, and the last id handed out.
 */
import { storedFields } from '@raider/kit/message-checks';
import { checkAgent, checkOutgoing, checkTakeOptions, checkWatch, fullInboxError } from './message-checks.js';
import type { MessageDelivery, MessageLimits, OutgoingMessage, StoredMessage, TakeOptions } from './message-store.js';

/** How long a take reserves what it takes when it names no `leaseMs`. */
const DEFAULT_LEASE_MS = 30_000;
// setTimeout's longest delay; a longer one would fire at once (Node's TimeoutOverflowWarning).
const LONGEST_TIMER = 2 ** 31 - 1;

/** The reservation one take holds: shared by the messages it took. */
interface Lease {
  readonly until: number;
}

/** A message in an inbox, and the take that holds it, if any (a lapsed lease holds nothing). */
interface Held {
  readonly message: StoredMessage;
  lease?: Lease;
}

/** A subscription of `watch` (an object, so one function watched twice is two subscriptions). */
interface Watcher {
  readonly onMessage: () => void;
}

/**
 * Calls `onMessage`, so that one that throws neither stops the others nor fails the store's call:
 * its error is thrown again in a later task, as an EventTarget listener's is, not lost.
 */
function call(watcher: Watcher): void {
  try {
    watcher.onMessage();
  } catch (error) {
    setTimeout(() => {
      throw error;
    }, 0);
  }
}

/** The stored form of a checked message (the kit's `storedFields`) with its id first, frozen. */
function storedMessage(message: OutgoingMessage, id: string, sentAt: number): StoredMessage {
  return Object.freeze({ id, ...storedFields(message, sentAt) });
}

/** The inboxes of one memory store: the messages by agent, the watchers, the last id handed out. */
export class MemoryInboxes {
  /** Messages by id per agent; a Map keeps insertion order, which is id order (sends append). */
  private readonly inboxes = new Map<string, Map<string, Held>>();
  private readonly watchers = new Map<string, Set<Watcher>>();
  private lastId = 0;

  constructor(
    private readonly limits: Readonly<MessageLimits>,
    private readonly now: () => number,
  ) {}

  async send(message: OutgoingMessage): Promise<StoredMessage> {
    checkOutgoing(message, this.limits);
    let inbox = this.inboxes.get(message.to);
    if (inbox && inbox.size >= this.limits.maxInboxMessages) {
      // Full: what has expired makes room first (a full inbox is rare, its walk short).
      const time = this.now();
      for (const [id, held] of inbox) if (!this.reserved(held, time) && this.expired(held, time)) inbox.delete(id);
      if (inbox.size >= this.limits.maxInboxMessages) throw fullInboxError(message.to, this.limits.maxInboxMessages);
    }
    if (!inbox) {
      inbox = new Map();
      this.inboxes.set(message.to, inbox);
    }
    this.lastId += 1;
    const stored = storedMessage(message, String(this.lastId), this.now());
    inbox.set(stored.id, { message: stored });
    this.wake(message.to);
    return stored;
  }

  async take(agent: string, takeOptions?: TakeOptions): Promise<MessageDelivery> {
    checkAgent('take', 'agent', agent);
    checkTakeOptions(takeOptions);
    const leaseMs = takeOptions?.leaseMs ?? DEFAULT_LEASE_MS;
    const max = takeOptions?.max ?? Number.POSITIVE_INFINITY;
    const lease: Lease = { until: this.now() + leaseMs };
    const taken: Held[] = [];
    this.walk(agent, (held) => {
      held.lease = lease;
      taken.push(held);
      return taken.length < max;
    });
    return this.delivery(agent, taken, lease, leaseMs);
  }

  async peek(agent: string): Promise<StoredMessage[]> {
    checkAgent('peek', 'agent', agent);
    const waiting: StoredMessage[] = [];
    this.walk(agent, (held) => {
      waiting.push(held.message);
      return true;
    });
    return waiting;
  }

  watch(agent: string, onMessage: () => void): () => void {
    checkWatch(agent, onMessage);
    const watcher: Watcher = { onMessage };
    let set = this.watchers.get(agent);
    if (!set) {
      set = new Set();
      this.watchers.set(agent, set);
    }
    set.add(watcher);
    return () => {
      const current = this.watchers.get(agent);
      if (!current?.delete(watcher)) return;
      if (current.size === 0) this.watchers.delete(agent);
    };
  }

  private expired(held: Held, time: number): boolean {
    return time - held.message.sentAt > this.limits.maxAgeMs;
  }

  private reserved(held: Held, time: number): boolean {
    return held.lease !== undefined && held.lease.until > time;
  }

  private forgetIfEmpty(agent: string, inbox: Map<string, Held>): void {
    if (inbox.size === 0 && this.inboxes.get(agent) === inbox) this.inboxes.delete(agent);
  }

  /** Walks the agent's inbox oldest first, dropping expired messages; `visit` returns false to stop. */
  private walk(agent: string, visit: (held: Held) => boolean): void {
    const inbox = this.inboxes.get(agent);
    if (!inbox) return;
    const time = this.now();
    for (const [id, held] of inbox) {
      if (this.reserved(held, time)) continue;
      if (this.expired(held, time)) inbox.delete(id);
      else if (!visit(held)) break;
    }
    this.forgetIfEmpty(agent, inbox);
  }

  /** Wakes the agent's watchers, in a later microtask: outside the code that changed the inbox. */
  private wake(agent: string): void {
    if (!this.watchers.has(agent)) return;
    queueMicrotask(() => {
      const current = this.watchers.get(agent);
      if (current) for (const watcher of [...current]) if (current.has(watcher)) call(watcher);
    });
  }

  /** What a take hands back: its messages, and `done` and `release`, which settle it once. */
  private delivery(agent: string, taken: readonly Held[], lease: Lease, leaseMs: number): MessageDelivery {
    let settled = taken.length === 0;
    const stillHeld = () =>
      taken.filter((held) => held.lease === lease && this.inboxes.get(agent)?.get(held.message.id) === held);
    // Wakes the watchers when the lease lapses with messages still held: the next take gets them.
    const lapse = settled
      ? undefined
      : setTimeout(
          () => {
            if (!settled && stillHeld().length > 0) this.wake(agent);
          },
          Math.min(leaseMs + 1, LONGEST_TIMER),
        );
    lapse?.unref?.();
    const settle = (): Held[] => {
      if (settled) return [];
      settled = true;
      clearTimeout(lapse);
      return stillHeld();
    };
    return {
      messages: Object.freeze(taken.map((held) => held.message)),
      // A message another take holds now (this lease lapsed and it was taken again) is that take's.
      done: async () => {
        const inbox = this.inboxes.get(agent);
        for (const held of settle()) inbox?.delete(held.message.id);
        if (inbox) this.forgetIfEmpty(agent, inbox);
      },
      release: async () => {
        const given = settle();
        for (const held of given) held.lease = undefined;
        if (given.length > 0) this.wake(agent);
      },
    };
  }
}
