/**
 * The messages of a list's agents, in the list folder (`TaskFolder.messages`): one inbox folder per
 * agent under `.messages/` (hidden, so Claude Code's reader and its reset pass it by), one file per
 * message, and a lock of its own, `.messages/.lock` (message-lock.ts: fenced, taken over once
 * stale), held by every send, take, release and peek for well under a millisecond.
 *
 * - A send writes its message whole under a temporary name before the lock; under it, links it in
 *   as `<id>.json.sending` (never over a file that exists), fsyncs the file and the inbox folder,
 *   and renames it `<id>.json`, where takes see it; then it answers.
 * - A take renames the messages it takes to `<id>.json.<until>.<token>.lease`: the lease is on
 *   disk, so every process sees it, and one rename claims a message (of two takes, one wins).
 *   `done` removes those files, `release` renames them back; a lease whose time has passed (its
 *   taker was killed) holds nothing, and the next take renames the file to a lease of its own.
 * - Ids: the last one handed out is kept in `.messages/.last-id`; a new one is above it, above the
 *   inbox's highest, and at least the time in ms times 1 000 (see `nextMessageId`).
 *
 * Here are the store's calls; how an inbox's files are read is inbox-files.ts, how a send makes its
 * message visible message-publish.ts, the ids last-message-id.ts, what a take hands back
 * message-delivery.ts.
 */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { storedFields } from '@raider/kit/message-checks';
import type {
  MessageDelivery,
  MessageLimits,
  MessageStore,
  OutgoingMessage,
  StoredMessage,
  TakeOptions,
} from '@raider/tasks-registry';
import { disk, exists } from '../disk.js';
import { FOLDER_FILES } from '../folder-files.js';
import { type HeldLock, type LockFence, queued } from '../list-lock.js';
import { fileError } from './file-error.js';
import { InboxFiles } from './inbox-files.js';
import { inboxFolderName } from './inbox-name.js';
import { InboxWatch } from './inbox-watch.js';
import { nextMessageId } from './last-message-id.js';
import { checkAgent, checkOutgoing, checkTakeOptions, checkWatch, fullInbox } from './message-checks.js';
import { deliveryOf, giveBack, type Taken } from './message-delivery.js';
import { formatMessage, leasedName as reservedName } from './message-file.js';
import { MessageLock } from './message-lock.js';
import { discard, MessagePublisher, prepareMessage } from './message-publish.js';

/** How long a take reserves what it takes when it names no `leaseMs`. */
const DEFAULT_LEASE_MS = 30_000;

/** Options of a list folder's message store. */
export interface MessageFolderOptions {
  /** The bounds of every inbox. */
  limits: Readonly<MessageLimits>;
  /** A lock untouched this long is stale and taken over (the list lock's stale time). */
  staleMs: number;
  /** Told of a message file that cannot be read (moved aside), and of a removal that may not last. */
  report: (message: string) => void;
}

/** A list folder's message store, and `close()`, which stops its watches. */
export interface FolderMessageStore extends MessageStore {
  close(): void;
}

/** Opens the message store of the list folder `listPath` (nothing touches the disk before a call). */
export function openMessageFolder(listPath: string, options: MessageFolderOptions): FolderMessageStore {
  return new MessageFolder(listPath, options);
}

/** The message store of one holder of a list folder. */
class MessageFolder implements FolderMessageStore {
  /** `.messages/`: the inboxes, the lock, the last id. */
  private readonly root: string;
  private readonly lock: MessageLock;
  private readonly watches = new Map<string, InboxWatch>();
  private readonly files: InboxFiles;
  private readonly publisher: MessagePublisher;

  constructor(
    private readonly listPath: string,
    private readonly options: MessageFolderOptions,
  ) {
    this.root = join(listPath, FOLDER_FILES.messages);
    this.lock = new MessageLock(this.root, options.staleMs);
    this.files = new InboxFiles(options.limits, options.report);
    this.publisher = new MessagePublisher(listPath, options.report);
  }

  private inbox(agent: string): string {
    return join(this.root, inboxFolderName(agent));
  }

  async send(message: OutgoingMessage): Promise<StoredMessage> {
    checkOutgoing(message, this.options.limits);
    const inbox = this.inbox(message.to);
    const unnamed = storedFields(message, Date.now());
    // Written whole before the lock is taken (a new file's inode is the costly part): the lock is held to name it.
    const prepared = await prepareMessage(inbox, formatMessage(unnamed));
    let id: number;
    try {
      id = await this.locked('nothing was sent', async (fence) => {
        const entries = await this.files.entries(inbox);
        let count = entries.length;
        if (count >= this.options.limits.maxInboxMessages) {
          count -= await this.files.dropExpired(inbox, message.to, entries);
        }
        if (count >= this.options.limits.maxInboxMessages) throw fullInbox(message.to, this.options.limits);
        const next = await nextMessageId(this.root, entries);
        await this.publisher.publish(inbox, prepared, next, fence);
        return next;
      });
    } finally {
      await discard(prepared);
    }
    this.watches.get(message.to)?.wake();
    return { id: String(id), ...unnamed };
  }

  async take(agent: string, options?: TakeOptions): Promise<MessageDelivery> {
    checkAgent('take', 'agent', agent);
    checkTakeOptions(options);
    const inbox = this.inbox(agent);
    // No inbox, no message: a read never makes a folder.
    if (!(await exists(inbox))) return this.delivery(agent, inbox, []);
    const leaseMs = options?.leaseMs ?? DEFAULT_LEASE_MS;
    const max = options?.max ?? Number.POSITIVE_INFINITY;
    const taken = await this.locked('nothing was taken', async (fence) => {
      const now = Date.now();
      const until = Math.min(Number.MAX_SAFE_INTEGER, Math.ceil(now + leaseMs));
      const token = randomBytes(8).toString('hex');
      const reserved: Taken[] = [];
      try {
        for await (const { entry, message } of this.files.waiting(inbox, agent, now)) {
          if (reserved.length >= max) break;
          const file = reservedName(entry.id, until, token);
          await fence.check();
          try {
            await disk.rename(join(inbox, entry.name), join(inbox, file));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // Done by its taker meanwhile.
            throw error;
          }
          reserved.push({ message, file });
        }
      } catch (error) {
        try {
          await giveBack(inbox, reserved);
        } catch {
          // Held by this take's lease until it ends, then taken again: at least once.
          throw fileError(inbox, error, 'what it reserved is given back once its lease ends');
        }
        throw fileError(inbox, error, 'nothing was taken');
      }
      return reserved;
    });
    return this.delivery(agent, inbox, taken);
  }

  async peek(agent: string): Promise<StoredMessage[]> {
    checkAgent('peek', 'agent', agent);
    const inbox = this.inbox(agent);
    if (!(await exists(inbox))) return [];
    return this.locked('nothing was read', async () => {
      const messages: StoredMessage[] = [];
      for await (const { message } of this.files.waiting(inbox, agent, Date.now())) messages.push(message);
      return messages;
    });
  }

  watch(agent: string, onMessage: () => void): () => void {
    checkWatch(agent, onMessage);
    let inboxWatch = this.watches.get(agent);
    if (!inboxWatch) {
      inboxWatch = new InboxWatch(this.inbox(agent), [this.root, this.listPath, dirname(this.listPath)]);
      this.watches.set(agent, inboxWatch);
    }
    const watched = inboxWatch;
    const stop = watched.add(onMessage);
    return () => {
      stop();
      if (!watched.listened && this.watches.get(agent) === watched) this.watches.delete(agent);
    };
  }

  close(): void {
    for (const inboxWatch of this.watches.values()) inboxWatch.close();
    this.watches.clear();
    this.lock.close();
  }

  /** What a take of `agent`'s inbox hands back for the messages it reserved (see message-delivery.ts). */
  private delivery(agent: string, inbox: string, taken: readonly Taken[]): MessageDelivery {
    return deliveryOf(inbox, taken, {
      locked: (outcome, fn) => this.locked(outcome, fn),
      wake: () => this.watches.get(agent)?.wake(),
      report: this.options.report,
    });
  }

  /**
   * Runs `fn` holding the message lock (after every earlier call of this process on it). Rejects
   * with a ListFileError ending in `outcome` when the lock cannot be had.
   */
  private locked<T>(outcome: string, fn: (fence: LockFence) => Promise<T>): Promise<T> {
    return queued(this.lock.lockPath, async () => {
      let held: HeldLock;
      try {
        held = await this.lock.take();
      } catch (error) {
        throw fileError(this.root, error, outcome);
      }
      try {
        return await fn(held);
      } finally {
        await held.release();
      }
    });
  }
}
