/**
 * How a send makes its message visible: written whole under a temporary name before the message
 * lock (a new file's inode is the costly part); under it, linked in as `<id>.json.sending` (never
 * over a file that exists), fsynced with its inbox folder, and renamed `<id>.json`, where takes
 * see it.
 */
import { dirname, join } from 'node:path';
import { disk, exists } from '../disk.js';
import { codeOf, removeIfPossible, syncFolder, temporaryPath, writeAll } from '../durable-write.js';
import { ListFileError } from '../errors.js';
import type { LockFence } from '../list-lock.js';
import { fileError } from './file-error.js';
import { sendingName, waitingName } from './message-file.js';

/**
 * How a publish names what it makes in its errors and reports: a message by default; the question
 * store (questions/) publishes its files through the same steps, and says so in its own words.
 */
export interface PublishWords {
  /** The base of the temporary file's name (`message.json`: `.message.json.<pid>.<n>.tmp`). */
  readonly file: string;
  /** What a rejected call did: `nothing was sent`. */
  readonly nothing: string;
  /** What a call whose link could not be taken back may have done: `the message may have been sent`. */
  readonly maybe: string;
  /** What a call made durable but could not show: `the message was sent, and is shown at the next call`. */
  readonly shownLater: string;
  /** The lock the publish runs under: `the message lock`. */
  readonly lock: string;
}

/** A message's words (the texts a send's errors have always had). */
export const MESSAGE_WORDS: PublishWords = Object.freeze({
  file: 'message.json',
  nothing: 'nothing was sent',
  maybe: 'the message may have been sent',
  shownLater: 'the message was sent, and is shown at the next call',
  lock: 'the message lock',
});

/** A message's file written whole under a temporary name, not yet fsynced: its path and its open descriptor. */
export interface PreparedMessage {
  readonly path: string;
  readonly fd: number;
}

/**
 * Writes a message's file whole under a temporary name in `inbox` (made if missing). It is fsynced
 * once linked in (`publish`): on ext4 that one journal commit makes the file and its link durable
 * together, and the folder's fsync after it finds little left to do. @throws ListFileError
 * (nothing left behind, nothing sent).
 */
export async function prepareMessage(
  inbox: string,
  data: Buffer,
  words: PublishWords = MESSAGE_WORDS,
): Promise<PreparedMessage> {
  const path = temporaryPath(join(inbox, words.file));
  let fd: number | undefined;
  try {
    await disk.mkdir(inbox, { recursive: true });
    fd = await disk.open(path, 'wx', 0o644);
    await writeAll(fd, data);
    return { path, fd };
  } catch (error) {
    await discard({ path, fd: fd ?? -1 });
    throw fileError(path, error, words.nothing);
  }
}

/** Closes and removes a prepared file (linked in by now, or not to be). */
export async function discard(prepared: PreparedMessage): Promise<void> {
  if (prepared.fd >= 0) {
    try {
      await disk.close(prepared.fd);
    } catch {
      // Its data is either synced already or not wanted.
    }
  }
  // A file left under its temporary name is one no take reads; the next take under the lock
  // removes it once it is dead (inbox-files.ts).
  await removeIfPossible(prepared.path);
}

/** The publishing of prepared messages into the inboxes of one list folder. */
export class MessagePublisher {
  /** Inboxes whose folder (and the folders above it) this holder made durable. */
  private readonly durableInboxes = new Set<string>();

  /**
   * @param listPath the list folder (the folders from an inbox up to its parent are made durable once)
   * @param report told of a message made durable whose rename failed (it is shown at the next call)
   */
  constructor(
    private readonly listPath: string,
    private readonly report: (message: string) => void,
    private readonly words: PublishWords = MESSAGE_WORDS,
  ) {}

  /**
   * Makes the prepared file message `id` of `inbox` (call it holding the message lock, whose fence
   * is `fence`): linked in as `<id>.json.sending` (never over a file that exists), which no take
   * looks at, fsynced, the inbox folder fsynced (and, the first time, the folders above it), then
   * renamed `<id>.json`. A take is woken by that rename, right before the lock is released, and
   * never waits for an fsync. When a step before the rename fails the link is taken back: a
   * rejected send changed nothing a take can see. Once the folder is fsynced the message is
   * durable, and the send is acknowledged: if the rename does not happen (this process is
   * killed), the next call under the lock makes it.
   * @throws ListFileError ending "nothing was sent", or "the message may have been sent" when the
   * link cannot be taken back.
   */
  async publish(inbox: string, prepared: PreparedMessage, id: number, fence: LockFence): Promise<void> {
    const sending = join(inbox, sendingName(id));
    let linked = false;
    try {
      await fence.check();
      await linkIn(prepared.path, sending, this.words.lock);
      linked = true;
      await disk.fsync(prepared.fd);
      await syncFolder(inbox);
      if (!this.durableInboxes.has(inbox)) {
        // The inbox's own entry, and those above it when they were just made.
        for (let folder = inbox; folder !== dirname(this.listPath); folder = dirname(folder)) {
          await syncFolder(dirname(folder));
        }
        this.durableInboxes.add(inbox);
      }
    } catch (error) {
      let outcome = this.words.nothing;
      if (linked) {
        try {
          await disk.unlink(sending);
        } catch {
          outcome = this.words.maybe;
        }
      }
      throw fileError(sending, error, outcome);
    }
    try {
      await disk.rename(sending, join(inbox, waitingName(id)));
    } catch (error) {
      this.report(`${sending}: ${codeOf(error)}; ${this.words.shownLater}`);
    }
  }
}

/**
 * Links `temporary` in as `path`, never over a file that exists; on a file system without hard
 * links, renames it after checking that no file has that name (the lock keeps other senders out).
 */
async function linkIn(temporary: string, path: string, lock: string): Promise<void> {
  try {
    await disk.link(temporary, path);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new ListFileError(`${path}: exists already, though ${lock} was held`);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  }
  if (await exists(path)) throw new ListFileError(`${path}: exists already, though ${lock} was held`);
  await disk.rename(temporary, path);
}
