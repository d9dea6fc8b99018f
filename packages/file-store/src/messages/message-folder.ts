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
 *   inbox's highest, and at least the time in ms times 1 000 (see `nextId`). */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type {
  MessageDelivery,
  MessageLimits,
  MessageStore,
  OutgoingMessage,
  StoredMessage,
  TakeOptions,
} from '@raider/tasks-registry';
import { codeOf, isDeadTemporary, syncFolder, temporaryPath, writeAll } from '../durable-write.js';
import { ListFileError } from '../errors.js';
import { FOLDER_FILES } from '../folder-files.js';
import { exists, type HeldLock, type LockFence, queued } from '../list-lock.js';
import { readRegular } from '../regular-file.js';
import { inboxFolderName } from './inbox-name.js';
import { InboxWatch } from './inbox-watch.js';
import { checkAgent, checkOutgoing, checkTakeOptions, checkWatch, fullInbox } from './message-checks.js';
import {
  corruptName,
  formatMessage,
  type MessageEntry,
  messageEntry,
  parseMessage,
  leasedName as reservedName,
  sendingId,
  sendingName,
  waitingName,
} from './message-file.js';
import { MessageLock } from './message-lock.js';

/** How long a take reserves what it takes when it names no `leaseMs`. */
const DEFAULT_LEASE_MS = 30_000;
/** The file of the last id handed out: 16 digits and a newline, rewritten in place. */
const LAST_ID_FILE = '.last-id';
const LAST_ID_WIDTH = 16;

/** Options of a list folder's message store. */
export interface MessageFolderOptions {
  /** The bounds of every inbox. */
  limits: Readonly<MessageLimits>;
  /** A lock untouched this long is stale and taken over (the list lock's stale time). */
  staleMs: number;
  /** Told of a message file that cannot be read (moved aside), and of a removal that may not last. */
  report: (message: string) => void;
}

/** A message a take reserved: the message, and its file's name while the lease is this take's. */
interface Taken {
  readonly message: StoredMessage;
  readonly file: string;
}

/** A list folder's message store, and `close()`, which stops its watches. */
export interface FolderMessageStore extends MessageStore {
  close(): void;
}

/** `error` as a ListFileError of `path` that says what the failed step means for the caller. */
function fileError(path: string, error: unknown, outcome: string): ListFileError {
  if (ListFileError.isInstance(error)) return new ListFileError(`${(error as Error).message}; ${outcome}`);
  return new ListFileError(`${path}: ${codeOf(error)}; ${outcome}`);
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
  /** Inboxes whose folder (and the folders above it) this holder made durable. */
  private readonly durableInboxes = new Set<string>();

  constructor(
    private readonly listPath: string,
    private readonly options: MessageFolderOptions,
  ) {
    this.root = join(listPath, FOLDER_FILES.messages);
    this.lock = new MessageLock(this.root, options.staleMs);
  }

  private inbox(agent: string): string {
    return join(this.root, inboxFolderName(agent));
  }

  async send(message: OutgoingMessage): Promise<StoredMessage> {
    checkOutgoing(message, this.options.limits);
    const inbox = this.inbox(message.to);
    const unnamed = messageFields(message, Date.now());
    // Written whole before the lock is taken (a new file's inode is the costly part): the lock is held to name it.
    const prepared = prepareMessage(inbox, formatMessage(unnamed));
    let id: number;
    try {
      id = await this.locked('nothing was sent', (fence) => {
        const entries = this.entries(inbox);
        let count = entries.length;
        if (count >= this.options.limits.maxInboxMessages) count -= this.dropExpired(inbox, message.to, entries);
        if (count >= this.options.limits.maxInboxMessages) throw fullInbox(message.to, this.options.limits);
        const next = this.nextId(entries);
        this.publish(inbox, prepared, next, fence);
        return next;
      });
    } finally {
      discard(prepared);
    }
    this.watches.get(message.to)?.wake();
    return { id: String(id), ...unnamed };
  }

  async take(agent: string, options?: TakeOptions): Promise<MessageDelivery> {
    checkAgent('take', 'agent', agent);
    checkTakeOptions(options);
    const inbox = this.inbox(agent);
    // No inbox, no message: a read never makes a folder.
    if (!exists(inbox)) return this.delivery(agent, inbox, []);
    const leaseMs = options?.leaseMs ?? DEFAULT_LEASE_MS;
    const max = options?.max ?? Number.POSITIVE_INFINITY;
    const taken = await this.locked('nothing was taken', (fence) => {
      const now = Date.now();
      const until = Math.min(Number.MAX_SAFE_INTEGER, Math.ceil(now + leaseMs));
      const token = randomBytes(8).toString('hex');
      const reserved: Taken[] = [];
      try {
        for (const { entry, message } of this.waiting(inbox, agent, now)) {
          if (reserved.length >= max) break;
          const file = reservedName(entry.id, until, token);
          fence.check();
          try {
            renameSync(join(inbox, entry.name), join(inbox, file));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // Done by its taker meanwhile.
            throw error;
          }
          reserved.push({ message, file });
        }
      } catch (error) {
        try {
          this.giveBack(inbox, reserved);
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
    if (!exists(inbox)) return [];
    return this.locked('nothing was read', () =>
      [...this.waiting(inbox, agent, Date.now())].map(({ message }) => message),
    );
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

  /**
   * Runs `fn` holding the message lock (after every earlier call of this process on it). Rejects
   * with a ListFileError ending in `outcome` when the lock cannot be had.
   */
  private locked<T>(outcome: string, fn: (fence: LockFence) => T): Promise<T> {
    return queued(this.lock.lockPath, async () => {
      let held: HeldLock;
      try {
        held = await this.lock.take();
      } catch (error) {
        throw fileError(this.root, error, outcome);
      }
      try {
        return fn(held);
      } finally {
        held.release();
      }
    });
  }

  /**
   * The message files of an inbox, oldest first. Temporary files a killed sender left are removed
   * on the way. @throws ListFileError when the folder cannot be listed.
   */
  private entries(inbox: string): MessageEntry[] {
    let names: string[];
    try {
      names = readdirSync(inbox);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new ListFileError(`${inbox}: cannot be read (${codeOf(error)})`);
    }
    const entries: MessageEntry[] = [];
    for (const name of names) {
      const entry = messageEntry(name) ?? this.sent(inbox, name);
      if (entry) entries.push(entry);
      else if (isDeadTemporary(name)) rmSync(join(inbox, name), { force: true });
    }
    return entries.sort((a, b) => a.id - b.id);
  }

  /**
   * A message a send made durable and stopped before it showed it (killed, or its lock lost
   * between the folder's fsync and the rename): seen under the lock, so no send is making it
   * still; shown now, as the send would have. Undefined for any other file.
   */
  private sent(inbox: string, name: string): MessageEntry | undefined {
    const id = sendingId(name);
    if (id === undefined) return undefined;
    try {
      renameSync(join(inbox, name), join(inbox, waitingName(id)));
    } catch {
      return undefined; // Shown meanwhile, or it cannot be yet: the next look tries again.
    }
    return { id, name: waitingName(id) };
  }

  /**
   * The messages of an inbox a take may have, oldest first, read as they are reached: those no
   * lease holds (waiting, or reserved by a lease that ended). On the way, one older than
   * `maxAgeMs` is removed, and one that cannot be read is moved aside and reported.
   */
  private *waiting(
    inbox: string,
    agent: string,
    now: number,
  ): Generator<{ entry: MessageEntry; message: StoredMessage }> {
    for (const entry of this.entries(inbox)) {
      if (entry.until !== undefined && entry.until > now) continue;
      const message = this.read(inbox, agent, entry);
      if (!message) continue;
      if (now - message.sentAt > this.options.limits.maxAgeMs) {
        rmSync(join(inbox, entry.name), { force: true });
        continue;
      }
      yield { entry, message };
    }
  }

  /** Removes what has expired among `entries` (not held by a lease); returns how many it removed. */
  private dropExpired(inbox: string, agent: string, entries: readonly MessageEntry[]): number {
    const now = Date.now();
    let dropped = 0;
    for (const entry of entries) {
      if (entry.until !== undefined && entry.until > now) continue;
      const message = this.read(inbox, agent, entry);
      if (!message || now - message.sentAt > this.options.limits.maxAgeMs) {
        rmSync(join(inbox, entry.name), { force: true });
        dropped += 1;
      }
    }
    return dropped;
  }

  /**
   * Reads one message file: its message, or undefined when it is gone, or when it cannot be read
   * or trusted (then moved aside to `<id>.json.corrupt`, out of the inbox, and reported).
   */
  private read(inbox: string, agent: string, entry: MessageEntry): StoredMessage | undefined {
    const path = join(inbox, entry.name);
    let reason: string;
    try {
      const content = readRegular(path);
      if (!content) return undefined;
      const parsed = parseMessage(content.text, entry.id, agent);
      if (typeof parsed !== 'string') return parsed;
      reason = parsed;
    } catch (error) {
      reason = ListFileError.isInstance(error) ? (error as Error).message.replace(`${path}: `, '') : codeOf(error);
    }
    let where = `moved aside to ${corruptName(entry.id)}`;
    try {
      renameSync(path, join(inbox, corruptName(entry.id)));
    } catch (error) {
      where = `left where it is (it cannot be moved aside: ${codeOf(error)})`;
    }
    this.options.report(`${path}: ${reason}; the message is skipped, ${where}`);
    return undefined;
  }

  /**
   * The id of the next message: above the last one handed out (`.last-id`), above the inbox's
   * highest, and at least the time in ms times 1 000. The file lives in the page cache only (it is
   * not fsynced: that would cost a send a second fsync); when a machine crash loses it, the clock
   * keeps ids above those handed out before, the inbox's highest keeps its own order whatever the
   * clock does, and only a clock set back across the crash could make an id repeat in another
   * inbox. The new id is recorded before the message is written: a failed send leaves a gap.
   */
  private nextId(entries: readonly MessageEntry[]): number {
    const path = join(this.root, LAST_ID_FILE);
    let fd: number;
    try {
      fd = openSync(path, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(path, error, 'nothing was sent');
      try {
        fd = openSync(path, 'w+', 0o644);
      } catch (created) {
        throw fileError(path, created, 'nothing was sent');
      }
    }
    try {
      const buffer = Buffer.alloc(64);
      const text = buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0)).trim();
      const last = /^[0-9]{1,16}$/.test(text) ? Number(text) : 0;
      const highest = entries.at(-1)?.id ?? 0;
      const id = Math.max(last + 1, highest + 1, Date.now() * 1000);
      if (!Number.isSafeInteger(id)) throw new ListFileError(`${path}: the ids have run out (${id})`);
      const data = Buffer.from(`${String(id).padStart(LAST_ID_WIDTH, '0')}\n`);
      // In place: the file's one block is rewritten, so a full disk cannot refuse it.
      if (writeSync(fd, data, 0, data.length, 0) !== data.length) throw Object.assign(new Error(), { code: 'EIO' });
      if (fstatSync(fd).size > data.length) ftruncateSync(fd, data.length);
      return id;
    } catch (error) {
      throw fileError(path, error, 'nothing was sent');
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Makes the prepared file message `id` of `inbox`: linked in as `<id>.json.sending` (never over
   * a file that exists), which no take looks at, fsynced, the inbox folder fsynced (and, the first
   * time, the folders above it), then renamed `<id>.json`. A take is woken
   * by that rename, right before the lock is released, and never waits for an fsync. When a step
   * before the rename fails the link is taken back: a rejected send changed nothing a take can see.
   * Once the folder is fsynced the message is durable, and the send is acknowledged: if the rename
   * does not happen (this process is killed), the next call under the lock makes it.
   */
  private publish(inbox: string, prepared: Prepared, id: number, fence: LockFence): void {
    const sending = join(inbox, sendingName(id));
    let linked = false;
    try {
      fence.check();
      linkIn(prepared.path, sending);
      linked = true;
      fsyncSync(prepared.fd);
      syncFolder(inbox);
      if (!this.durableInboxes.has(inbox)) {
        // The inbox's own entry, and those above it when they were just made.
        for (let folder = inbox; folder !== dirname(this.listPath); folder = dirname(folder)) {
          syncFolder(dirname(folder));
        }
        this.durableInboxes.add(inbox);
      }
    } catch (error) {
      let outcome = 'nothing was sent';
      if (linked) {
        try {
          unlinkSync(sending);
        } catch {
          outcome = 'the message may have been sent';
        }
      }
      throw fileError(sending, error, outcome);
    }
    try {
      renameSync(sending, join(inbox, waitingName(id)));
    } catch (error) {
      this.options.report(`${sending}: ${codeOf(error)}; the message was sent, and is shown at the next call`);
    }
  }

  /** Renames reserved messages back to waiting (a take that failed half way, a release). */
  private giveBack(inbox: string, taken: readonly Taken[]): void {
    for (const { message, file } of taken) {
      try {
        renameSync(join(inbox, file), join(inbox, waitingName(Number(message.id))));
      } catch (error) {
        // Gone (done), or taken again after the lease; or it cannot be renamed: back once the lease ends.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }

  private delivery(agent: string, inbox: string, taken: readonly Taken[]): MessageDelivery {
    let settled = taken.length === 0;
    return {
      messages: Object.freeze(taken.map(({ message }) => message)),
      done: async () => {
        if (settled) return;
        const failures: string[] = [];
        for (const { file } of taken) {
          try {
            unlinkSync(join(inbox, file));
          } catch (error) {
            // Gone: done before, or taken again by another take after the lease (its message now).
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT') failures.push(codeOf(error));
          }
        }
        if (failures.length) {
          throw new ListFileError(
            `${inbox}: ${failures.length} of the ${taken.length} messages taken could not be removed (${failures[0]}); they are taken again once the lease ends`,
          );
        }
        settled = true;
        try {
          syncFolder(inbox);
        } catch (error) {
          this.options.report(
            `${inbox}: the removal of ${taken.length} messages done may not survive a crash (${codeOf(error)}): they may be taken again`,
          );
        }
      },
      release: async () => {
        if (settled) return;
        await this.locked('the messages are given back once the lease ends', () => this.giveBack(inbox, taken));
        settled = true;
        this.watches.get(agent)?.wake();
      },
    };
  }
}

/** A message's file written whole under a temporary name, not yet fsynced: its path and its open descriptor. */
interface Prepared {
  readonly path: string;
  readonly fd: number;
}

/**
 * Writes a message's file whole under a temporary name in `inbox` (made if missing). It is fsynced
 * once linked in (`publish`): on ext4 that one journal commit makes the file and its link durable
 * together, and the folder's fsync after it finds little left to do. @throws ListFileError
 * (nothing left behind, nothing sent).
 */
function prepareMessage(inbox: string, data: Buffer): Prepared {
  const path = temporaryPath(join(inbox, 'message.json'));
  let fd: number | undefined;
  try {
    mkdirSync(inbox, { recursive: true });
    fd = openSync(path, 'wx', 0o644);
    writeAll(fd, data);
    return { path, fd };
  } catch (error) {
    discard({ path, fd: fd ?? -1 });
    throw fileError(path, error, 'nothing was sent');
  }
}

/** Closes and removes a prepared file (linked in by now, or not to be). */
function discard(prepared: Prepared): void {
  if (prepared.fd >= 0) {
    try {
      closeSync(prepared.fd);
    } catch {
      // Its data is either synced already or not wanted.
    }
  }
  rmSync(prepared.path, { force: true });
}

/**
 * Links `temporary` in as `path`, never over a file that exists; on a file system without hard
 * links, renames it after checking that no file has that name (the lock keeps other senders out).
 */
function linkIn(temporary: string, path: string): void {
  try {
    linkSync(temporary, path);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new ListFileError(`${path}: exists already, though the message lock was held`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  }
  if (exists(path)) throw new ListFileError(`${path}: exists already, though the message lock was held`);
  renameSync(temporary, path);
}

/** The stored form of a checked message but its id: only its known fields, absent ones left out. */
function messageFields(message: OutgoingMessage, sentAt: number): Omit<StoredMessage, 'id'> {
  return {
    to: message.to,
    ...(message.from === undefined ? {} : { from: message.from }),
    text: message.text,
    notification: message.notification,
    ...(message.about === undefined ? {} : { about: message.about }),
    ...(message.label === undefined ? {} : { label: message.label }),
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
    sentAt,
  };
}
