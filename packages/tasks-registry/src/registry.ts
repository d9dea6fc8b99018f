/**
 * TaskRegistry: the registry of background work and its notification queue (raider's
 * Langertha::Raider::Tasks). One per application or conversation.
 */
import { received } from '@raider/kit/received';
import { RegistryArgumentError, RegistryRangeError } from './errors.js';
import { END_STATUSES, type EndStatus } from './notification.js';

/** The status of an entry: `running` until its run ends. */
export type TaskStatus = 'running' | EndStatus;

const STATUSES: readonly TaskStatus[] = ['running', ...END_STATUSES];

/**
 * A piece of work the model can address by id. Every entry has `id`, `kind` and `status`;
 * everything else is the kind's own. `stop` asks the work to end; `promise` is its run, which
 * the registry holds until it settles (a failing run never becomes an unhandled rejection).
 */
export interface TaskEntry {
  id: string;
  kind: string;
  status: TaskStatus;
  /** Who hears of the entry's end: `main` or the id of the agent that started it. */
  recipient?: string;
  description?: string;
  /** A name given at spawn; `find` looks entries up by it. */
  name?: string;
  background?: boolean;
  /** Asks the work to end. */
  stop?: () => unknown;
  /** The run of the work. */
  promise?: Promise<unknown>;
  /** Set by `stop(id, { quiet: true })`: the entry's end notifies nobody. */
  quiet?: boolean;
  [field: string]: unknown;
}

/** The fields of a new entry: `id` and `kind` required, `status` defaults to `running`. */
export type NewTaskEntry = Omit<TaskEntry, 'status'> & { status?: TaskStatus };

/** A queued item: a notification (`notify`) or a plain message (`post`). */
export interface QueueItem {
  text: string;
  /** True for a `<task-notification>`, false for a plain message. */
  notification: boolean;
  /** The entry a notification is about. */
  id?: string;
  /** The line a surface shows for it. */
  label?: string;
}

/** A user message made of queued items: consecutive notifications together, a plain message alone. */
export interface UserMessage {
  content: string;
  notification: boolean;
  items: QueueItem[];
}

/** The events a registry dispatches (as `CustomEvent`s with this `detail`). */
export interface TaskRegistryEvents {
  added: { entry: TaskEntry };
  finished: { entry: TaskEntry };
  queued: { recipient: string; item: QueueItem };
  taken: { recipient: string; items: QueueItem[]; discarded: boolean };
}

/** Options of {@link TaskRegistry}. */
export interface TaskRegistryOptions {
  /**
   * How waiters are woken: called with a function to run later. The default runs it on the next
   * macrotask (`setImmediate`), so whoever waits goes on outside the code that queued the message.
   */
  schedule?: (wake: () => void) => void;
}

/** Field filter of `entries` and `running`. */
export type EntryFilter = Readonly<Record<string, unknown>>;

interface Waiter {
  resolve: () => void;
  cleanup: () => void;
}

const ID_FORM = /^(.+)_([0-9]+)$/;

/** A received value in the MessageStore contract's wording (the kit's describer, `by: 'type'`). */
const describe = (value: unknown): string => received(value, { by: 'type' });

function requireName(fn: string, field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    throw new RegistryArgumentError(`${fn}: ${field}: expected a non-empty string, received ${describe(value)}`);
  }
}

function requireStatus(fn: string, value: unknown, allowed: readonly string[]): void {
  if (!allowed.includes(value as string)) {
    throw new RegistryRangeError(`${fn}: status: expected one of ${allowed.join(', ')}, received ${describe(value)}`);
  }
}

// A boolean field compares as true or false: `background: 1` matches `true`.
function fieldMatches(actual: unknown, wanted: unknown): boolean {
  if (typeof actual === 'boolean' || typeof wanted === 'boolean') return Boolean(actual) === Boolean(wanted);
  return actual === wanted;
}

const ignore = (): void => {};

/**
 * The registry of background work (entries by id, per-kind id counters, stop) and the queue of
 * messages per recipient (notifications and plain messages, oldest first), with waiters woken
 * when something is queued. Dispatches `added`, `finished`, `queued` and `taken` events.
 */
export class TaskRegistry extends EventTarget {
  private readonly byId = new Map<string, TaskEntry>();
  private readonly counters = new Map<string, number>();
  private readonly queues = new Map<string, QueueItem[]>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly schedule: (wake: () => void) => void;

  constructor(options: TaskRegistryOptions = {}) {
    super();
    this.schedule = options.schedule ?? ((wake) => setImmediate(wake));
  }

  /** Adds a typed listener for one of the registry's events. */
  on<K extends keyof TaskRegistryEvents>(type: K, listener: (detail: TaskRegistryEvents[K]) => void): () => void {
    const handler = (event: Event) => listener((event as CustomEvent<TaskRegistryEvents[K]>).detail);
    this.addEventListener(type, handler);
    return () => this.removeEventListener(type, handler);
  }

  private emit<K extends keyof TaskRegistryEvents>(type: K, detail: TaskRegistryEvents[K]): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /**
   * The next free id of `kind`: `KIND_N` with the kind's counter, skipping ids the registry has
   * and those `taken` says are taken (say, the agent ids of a resumed session). Advances the counter.
   */
  nextId(kind: string, options: { taken?: (id: string) => boolean } = {}): string {
    requireName('nextId', 'kind', kind);
    let count = (this.counters.get(kind) ?? 0) + 1;
    while (this.byId.has(`${kind}_${count}`) || options.taken?.(`${kind}_${count}`)) count += 1;
    this.counters.set(kind, count);
    return `${kind}_${count}`;
  }

  /**
   * Registers an entry (status `running` unless given) and returns it. An id of the form KIND_N
   * moves that kind's counter to at least N. A `promise` is held until it settles.
   *
   * @throws RegistryArgumentError (a TypeError) for a missing id or kind, or an id in use (nothing is changed);
   *   RegistryRangeError (a RangeError) for an unknown status.
   */
  add(fields: NewTaskEntry): TaskEntry {
    if (typeof fields !== 'object' || fields === null) {
      throw new RegistryArgumentError(`add: expected an object with id and kind, received ${describe(fields)}`);
    }
    requireName('add', 'id', fields.id);
    requireName('add', 'kind', fields.kind);
    if (fields.status !== undefined) requireStatus('add', fields.status, STATUSES);
    if (this.byId.has(fields.id)) {
      throw new RegistryArgumentError(
        `add: id: expected an id not in use, received ${JSON.stringify(fields.id)}, which is in use`,
      );
    }
    const entry = { ...fields, status: fields.status ?? 'running' } as TaskEntry;
    this.byId.set(entry.id, entry);
    const form = ID_FORM.exec(entry.id);
    if (form) {
      const [, kind, n] = form as unknown as [string, string, string];
      this.counters.set(kind, Math.max(this.counters.get(kind) ?? 0, Number(n)));
    }
    this.hold(entry.promise);
    this.emit('added', { entry });
    return entry;
  }

  /** Attaches a handler, so a failing run is never an unhandled rejection. */
  private hold(promise: unknown): void {
    if (promise instanceof Promise) promise.then(ignore, ignore);
  }

  /**
   * Changes fields of an entry (a resumed agent runs again) and returns it; `undefined` for an
   * unknown id. A new `promise` is held as with `add`. The id cannot change.
   *
   * @throws RegistryArgumentError (a TypeError) for a field `id` other than the entry's; RegistryRangeError (a RangeError) for an unknown status.
   */
  set(id: string, fields: Partial<TaskEntry>): TaskEntry | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    if (fields.id !== undefined && fields.id !== id) {
      throw new RegistryArgumentError(
        `set: id: an entry's id cannot change, received ${describe(fields.id)} for ${JSON.stringify(id)}`,
      );
    }
    if (fields.status !== undefined) requireStatus('set', fields.status, STATUSES);
    Object.assign(entry, fields);
    if (fields.promise !== undefined) this.hold(fields.promise);
    return entry;
  }

  /** The entry with that id, or `undefined`. */
  get(id: string): TaskEntry | undefined {
    return this.byId.get(id);
  }

  /** The entry with that id, else the newest one whose `name` is that string; else `undefined`. */
  find(idOrName: string): TaskEntry | undefined {
    const byId = this.byId.get(idOrName);
    if (byId) return byId;
    let found: TaskEntry | undefined;
    for (const entry of this.byId.values()) if (entry.name === idOrName) found = entry;
    return found;
  }

  /** The entries, oldest first, whose fields equal the filter's (a boolean compares as true or false). */
  entries(filter: EntryFilter = {}): TaskEntry[] {
    const wanted = Object.entries(filter);
    return [...this.byId.values()].filter((entry) => wanted.every(([key, value]) => fieldMatches(entry[key], value)));
  }

  /** `entries` with status `running`. */
  running(filter: EntryFilter = {}): TaskEntry[] {
    return this.entries({ ...filter, status: 'running' });
  }

  /**
   * Sets the entry's status (completed, failed, killed) and the given fields; returns the entry,
   * or `undefined` for an unknown id. Dispatches `finished`.
   *
   * @throws RegistryRangeError (a RangeError) for another status (nothing is changed).
   */
  finish(id: string, status: EndStatus, fields: Partial<TaskEntry> = {}): TaskEntry | undefined {
    requireStatus('finish', status, END_STATUSES);
    const entry = this.set(id, { ...fields, status });
    if (entry) this.emit('finished', { entry });
    return entry;
  }

  /**
   * Asks a running entry to end, through its `stop`. True when there was one to ask. With
   * `quiet` the entry is marked quiet: its end notifies nobody (`notify` about it queues nothing).
   */
  stop(id: string, options: { quiet?: boolean } = {}): boolean {
    const entry = this.byId.get(id);
    if (!entry) return false;
    if (options.quiet) entry.quiet = true;
    if (entry.status !== 'running' || typeof entry.stop !== 'function') return false;
    entry.stop();
    return true;
  }

  /**
   * `stop` for every running entry; returns the promises of their runs (settled once each has
   * ended; use `Promise.allSettled`). Every entry is asked even when a `stop` throws; the errors
   * are then thrown together as an AggregateError.
   */
  stopAll(options: { quiet?: boolean } = {}): Promise<unknown>[] {
    const promises: Promise<unknown>[] = [];
    const errors: unknown[] = [];
    for (const entry of this.running()) {
      try {
        this.stop(entry.id, options);
      } catch (error) {
        errors.push(error);
      }
      if (entry.promise instanceof Promise) promises.push(entry.promise);
    }
    if (errors.length) throw new AggregateError(errors, `stopAll: ${errors.length} stop functions threw`);
    return promises;
  }

  private enqueue(recipient: string, item: QueueItem): void {
    const queue = this.queues.get(recipient);
    if (queue) queue.push(item);
    else this.queues.set(recipient, [item]);
    this.emit('queued', { recipient, item });
    this.wake(recipient);
  }

  /** Queues a plain message (what send_message hands a running agent) and wakes the recipient's waiters. */
  post(recipient: string, text: string): void {
    requireName('post', 'recipient', recipient);
    if (typeof text !== 'string')
      throw new RegistryArgumentError(`post: text: expected a string, received ${describe(text)}`);
    this.enqueue(recipient, { text, notification: false });
  }

  /**
   * Queues a notification (a `notificationText`) and wakes the recipient's waiters. `id` names the
   * entry it is about, `label` the line a surface shows. Returns false, queuing nothing, when the
   * entry was stopped quietly.
   */
  notify(recipient: string, text: string, options: { id?: string; label?: string } = {}): boolean {
    requireName('notify', 'recipient', recipient);
    if (typeof text !== 'string')
      throw new RegistryArgumentError(`notify: text: expected a string, received ${describe(text)}`);
    if (options.id !== undefined && this.byId.get(options.id)?.quiet) return false;
    const item: QueueItem = { text, notification: true };
    if (options.id !== undefined) item.id = options.id;
    if (options.label !== undefined) item.label = options.label;
    this.enqueue(recipient, item);
    return true;
  }

  /** How many items wait for the recipient. */
  pending(recipient: string): number {
    return this.queues.get(recipient)?.length ?? 0;
  }

  /** Copies of the waiting items of the recipient, without taking them. */
  peek(recipient: string): QueueItem[] {
    return (this.queues.get(recipient) ?? []).map((item) => ({ ...item }));
  }

  /** Takes the waiting items of the recipient, oldest first. Dispatches `taken` when there were any. */
  take(recipient: string): QueueItem[] {
    const items = this.queues.get(recipient) ?? [];
    this.queues.delete(recipient);
    if (items.length) this.emit('taken', { recipient, items, discarded: false });
    return items;
  }

  /**
   * Takes the waiting items as the user messages they make: consecutive notifications form one
   * message (joined by a newline) in the order they were queued; a plain message is one of its own.
   */
  takeMessages(recipient: string): UserMessage[] {
    const messages: UserMessage[] = [];
    for (const item of this.take(recipient)) {
      const last = messages[messages.length - 1];
      if (item.notification && last?.notification) {
        last.content += `\n${item.text}`;
        last.items.push(item);
      } else {
        messages.push({ content: item.text, notification: item.notification, items: [item] });
      }
    }
    return messages;
  }

  /** Drops what waits for the recipient (for a run that ended and will never read it) and wakes its waiters. */
  discard(recipient: string): void {
    const items = this.queues.get(recipient) ?? [];
    this.queues.delete(recipient);
    if (items.length) this.emit('taken', { recipient, items, discarded: true });
    this.wake(recipient);
  }

  /**
   * Resolves once something waits for the recipient: at once when something already does.
   * Waiters are woken through `schedule`. Aborting `signal` rejects with the signal's reason (an
   * AbortError by default) and leaves no waiter or listener behind.
   */
  waitFor(recipient: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    requireName('waitFor', 'recipient', recipient);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.pending(recipient) > 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiters = this.waiters.get(recipient) ?? new Set<Waiter>();
      this.waiters.set(recipient, waiters);
      const onAbort = () => {
        waiter.cleanup();
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        resolve,
        cleanup: () => {
          waiters.delete(waiter);
          if (waiters.size === 0 && this.waiters.get(recipient) === waiters) this.waiters.delete(recipient);
          signal?.removeEventListener('abort', onAbort);
        },
      };
      waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** How many waiters wait for the recipient (for surfaces and tests). */
  waiting(recipient: string): number {
    return this.waiters.get(recipient)?.size ?? 0;
  }

  private wake(recipient: string): void {
    const waiters = this.waiters.get(recipient);
    if (!waiters?.size) return;
    const woken = [...waiters];
    for (const waiter of woken) waiter.cleanup();
    this.schedule(() => {
      for (const waiter of woken) waiter.resolve();
    });
  }
}
