/**
 * The inboxes of one list's agents in PostgreSQL: `@raider/tasks-registry`'s `MessageStore`, so
 * that servers on one list, on any number of machines, hand each agent what was sent to it.
 *
 * - A send is one transaction that waits for the inbox (sends to one agent go one at a time, so
 *   its ids commit in their order and its count is exact), checks the inbox's bound, inserts the
 *   message and NOTIFYs the inbox; it resolves once the COMMIT is answered (durable).
 * - A take is one statement that reserves the oldest free messages (`FOR UPDATE SKIP LOCKED`)
 *   with a lease (until when, by the database's clock, and a token of the take's own); `done`
 *   deletes them by id and that token, so a message whose lease lapsed and that another take got
 *   is not deleted by its former taker; `release` frees them and NOTIFYs the inbox.
 * - `watch` hears the inbox's NOTIFYs on the process's one LISTEN connection, and the heartbeat
 *   makes up for a NOTIFY lost while it was down, and for a lease that lapsed in a process that
 *   died (see `MESSAGE_FEED`).
 */
import { randomUUID } from 'node:crypto';
import type {
  MessageDelivery,
  MessageLimits,
  MessageStore,
  OutgoingMessage,
  StoredMessage,
  TakeOptions,
} from '@raider/tasks-registry';
import type { Database } from './database.js';
import { DatabaseError } from './errors.js';
import type { Listener } from './listener.js';
import { checkAgent, checkOutgoing, checkTakeOptions, checkWatch, fullInboxError } from './message-checks.js';
import {
  findSent,
  inboxKey,
  MESSAGE_FEED,
  notifyInbox,
  peekMessages,
  releaseTaken,
  removeTaken,
  sendMessage,
  takeMessages,
} from './message-queries.js';

/** How long a take reserves what it takes when it names no `leaseMs`. */
const DEFAULT_LEASE_MS = 30_000;
// setTimeout's longest delay; a longer one would fire at once.
const LONGEST_TIMER = 2 ** 31 - 1;
// What a failed call says became of it.
const NOT_SENT = 'the message was not sent';
const NOT_READ = 'nothing was read';

/** The MessageStore of one list (`PostgresList.messages`). */
export class PostgresMessageStore implements MessageStore {
  constructor(
    private readonly database: Database,
    private readonly listener: Listener,
    private readonly listId: string,
    private readonly limits: Readonly<MessageLimits>,
  ) {}

  async send(message: OutgoingMessage): Promise<StoredMessage> {
    checkOutgoing(message, this.limits);
    const sendToken = randomUUID();
    let sent: StoredMessage | undefined;
    try {
      sent = await this.database.autocommit(NOT_SENT, (client) =>
        sendMessage(
          client,
          {
            listId: this.listId,
            to: message.to,
            from: message.from,
            text: message.text,
            notification: message.notification,
            about: message.about,
            label: message.label,
            taskId: message.taskId,
            sendToken,
          },
          this.limits,
        ),
      );
    } catch (error) {
      if (!(DatabaseError.isInstance(error) && (error as DatabaseError).mayHaveBeenSaved)) throw error;
      // The answer to the write was lost. Found in the inbox, the message was committed: the send
      // is acknowledged. Not found, it may still have been (and been taken since): say so.
      const found = await this.database
        .single(NOT_READ, (client) => findSent(client, this.listId, message.to, sendToken))
        .catch(() => undefined);
      if (found) return found;
      throw error;
    }
    if (!sent) throw fullInboxError(message.to, this.limits.maxInboxMessages);
    return sent;
  }

  async take(agent: string, options?: TakeOptions): Promise<MessageDelivery> {
    checkAgent('take', 'agent', agent);
    checkTakeOptions(options);
    const leaseMs = options?.leaseMs ?? DEFAULT_LEASE_MS;
    const leaseToken = randomUUID();
    const messages = await this.database.single(NOT_READ, (client) =>
      takeMessages(client, this.listId, agent, this.limits.maxAgeMs, {
        max: options?.max ?? null,
        leaseMs,
        leaseToken,
      }),
    );
    return this.delivery(agent, messages, leaseMs, leaseToken);
  }

  async peek(agent: string): Promise<StoredMessage[]> {
    checkAgent('peek', 'agent', agent);
    return this.database.single(NOT_READ, (client) => peekMessages(client, this.listId, agent, this.limits.maxAgeMs));
  }

  watch(agent: string, onMessage: () => void): () => void {
    checkWatch(agent, onMessage);
    return this.listener.add(MESSAGE_FEED, inboxKey(this.listId, agent), onMessage);
  }

  /** The delivery of `messages`, held under `leaseToken` for `leaseMs`. */
  private delivery(
    agent: string,
    messages: readonly StoredMessage[],
    leaseMs: number,
    leaseToken: string,
  ): MessageDelivery {
    const ids = messages.map((message) => message.id);
    const key = inboxKey(this.listId, agent);
    let settled = messages.length === 0;
    // A lease that lapses in this process, neither done nor released: NOTIFY the inbox, so the
    // watchers of every server take the messages again (a taker that died leaves it to the
    // heartbeat). The timer runs past the lease by the time the take's statement took, no less.
    const lapse = settled
      ? undefined
      : setTimeout(
          () => {
            if (!settled) void this.database.single(NOT_READ, (client) => notifyInbox(client, key)).catch(() => {});
          },
          Math.min(leaseMs + 1, LONGEST_TIMER),
        );
    lapse?.unref();
    // done and release settle the delivery once they succeed; one that fails may be called again.
    const settle = async (change: () => Promise<void>) => {
      if (settled) return;
      await change();
      settled = true;
      clearTimeout(lapse);
    };
    return {
      messages: Object.freeze([...messages]),
      done: () =>
        settle(() =>
          this.database.single('the messages stay reserved until their lease lapses, then are taken again', (client) =>
            removeTaken(client, ids, leaseToken),
          ),
        ),
      release: () =>
        settle(() =>
          this.database.single('the messages stay reserved until their lease lapses', (client) =>
            releaseTaken(client, ids, leaseToken, key),
          ),
        ),
    };
  }
}
