/**
 * The message files of one inbox folder as a call under the message lock reads them: the messages
 * oldest first, those a take may have (no lease holds them), and on the way what must not stay: a
 * send a killed sender made durable is shown, a killed sender's temporary is removed, a message
 * older than the inbox's `maxAgeMs` is dropped, and one that cannot be read is moved aside.
 */
import { join } from 'node:path';
import type { MessageLimits, StoredMessage } from '@raider/tasks-registry';
import { disk } from '../disk.js';
import { codeOf, isDeadTemporary } from '../durable-write.js';
import { ListFileError } from '../errors.js';
import { readRegular } from '../regular-file.js';
import { corruptName, type MessageEntry, messageEntry, parseMessage, sendingId, waitingName } from './message-file.js';

/** The reads of the inboxes of one list folder (call them holding the message lock). */
export class InboxFiles {
  /**
   * @param limits the inboxes' bounds (`maxAgeMs`: an older message is dropped)
   * @param report told (by path) of a message file that cannot be read, and where it went
   */
  constructor(
    private readonly limits: Readonly<MessageLimits>,
    private readonly report: (message: string) => void,
  ) {}

  /**
   * The message files of `inbox`, oldest first (none while it does not exist). Temporary files a
   * killed sender left are removed on the way. @throws ListFileError when the folder cannot be listed.
   */
  async entries(inbox: string): Promise<MessageEntry[]> {
    let names: string[];
    try {
      names = await disk.readdir(inbox);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new ListFileError(`${inbox}: cannot be read (${codeOf(error)})`);
    }
    const entries: MessageEntry[] = [];
    for (const name of names) {
      const entry = messageEntry(name) ?? (await this.sent(inbox, name));
      if (entry) entries.push(entry);
      else if (isDeadTemporary(name)) await disk.remove(join(inbox, name));
    }
    return entries.sort((a, b) => a.id - b.id);
  }

  /**
   * The messages of `inbox` (agent `agent`'s) a take may have, oldest first, read as they are
   * reached: those no lease holds (waiting, or reserved by a lease that ended at `now`). On the
   * way, one older than `maxAgeMs` is removed, and one that cannot be read is moved aside and
   * reported.
   */
  async *waiting(
    inbox: string,
    agent: string,
    now: number,
  ): AsyncGenerator<{ entry: MessageEntry; message: StoredMessage }> {
    for (const entry of await this.entries(inbox)) {
      if (entry.until !== undefined && entry.until > now) continue;
      const message = await this.read(inbox, agent, entry);
      if (!message) continue;
      if (now - message.sentAt > this.limits.maxAgeMs) {
        await disk.remove(join(inbox, entry.name));
        continue;
      }
      yield { entry, message };
    }
  }

  /** Removes what has expired among `entries` (not held by a lease); returns how many it removed. */
  async dropExpired(inbox: string, agent: string, entries: readonly MessageEntry[]): Promise<number> {
    const now = Date.now();
    let dropped = 0;
    for (const entry of entries) {
      if (entry.until !== undefined && entry.until > now) continue;
      const message = await this.read(inbox, agent, entry);
      if (!message || now - message.sentAt > this.limits.maxAgeMs) {
        await disk.remove(join(inbox, entry.name));
        dropped += 1;
      }
    }
    return dropped;
  }

  /**
   * A message a send made durable and stopped before it showed it (killed, or its lock lost
   * between the folder's fsync and the rename): seen under the lock, so no send is making it
   * still; shown now, as the send would have. Undefined for any other file.
   */
  private async sent(inbox: string, name: string): Promise<MessageEntry | undefined> {
    const id = sendingId(name);
    if (id === undefined) return undefined;
    try {
      await disk.rename(join(inbox, name), join(inbox, waitingName(id)));
    } catch {
      return undefined; // Shown meanwhile, or it cannot be yet: the next look tries again.
    }
    return { id, name: waitingName(id) };
  }

  /**
   * Reads one message file: its message, or undefined when it is gone, or when it cannot be read
   * or trusted (then moved aside to `<id>.json.corrupt`, out of the inbox, and reported).
   */
  private async read(inbox: string, agent: string, entry: MessageEntry): Promise<StoredMessage | undefined> {
    const path = join(inbox, entry.name);
    let reason: string;
    try {
      const content = await readRegular(path);
      if (!content) return undefined;
      const parsed = parseMessage(content.text, entry.id, agent);
      if (typeof parsed !== 'string') return parsed;
      reason = parsed;
    } catch (error) {
      reason = ListFileError.isInstance(error) ? (error as Error).message.replace(`${path}: `, '') : codeOf(error);
    }
    let where = `moved aside to ${corruptName(entry.id)}`;
    try {
      await disk.rename(path, join(inbox, corruptName(entry.id)));
    } catch (error) {
      where = `left where it is (it cannot be moved aside: ${codeOf(error)})`;
    }
    this.report(`${path}: ${reason}; the message is skipped, ${where}`);
    return undefined;
  }
}
