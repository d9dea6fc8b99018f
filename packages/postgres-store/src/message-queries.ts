/**
 * The queries of the agents' inboxes (`raider_messages`). Each runs on a connection given to it;
 * every time is the database's clock (`now()`), so servers on machines whose clocks differ agree
 * on when a lease lapses and when a message is too old.
 */
import type { StoredMessage } from '@raider/tasks-registry';
import type pg from 'pg';
import type { ListenerFeed } from './listener.js';

/** The NOTIFY channel of the inboxes; the payload is an inbox's key (see {@link inboxKey}). */
export const MESSAGE_CHANNEL = 'raider_messages';

/**
 * The key of agent `agent`'s inbox in list `listId`: the NOTIFY payload and the watchers' key.
 * JSON of both: at most about 1.6 kB for a 200-character list id and agent name, under
 * PostgreSQL's 8 000-byte limit of a payload.
 */
export function inboxKey(listId: string, agent: string): string {
  return JSON.stringify([listId, agent]);
}

/**
 * The inboxes as the listener watches them: a NOTIFY per send and release; the heartbeat's
 * fingerprint of an inbox is its last id and how many of its messages are free (no lease, or a
 * lapsed one), so a send whose NOTIFY was lost, and a lease that lapsed in a process that died,
 * wake its watchers at the next check.
 */
export const MESSAGE_FEED: ListenerFeed = {
  channel: MESSAGE_CHANNEL,
  async fingerprints(client, keys) {
    const inboxes = keys.map((key) => JSON.parse(key) as [string, string]);
    const { rows } = await client.query<{ key: string; fingerprint: string }>(
      `SELECT inbox.key, coalesce(max(m.id), 0)::text || ':' ||
              count(m.id) FILTER (WHERE m.lease_until IS NULL OR m.lease_until <= now()) AS fingerprint
       FROM unnest($1::text[], $2::text[], $3::text[]) AS inbox (key, list_id, recipient)
       LEFT JOIN raider_messages AS m ON m.list_id = inbox.list_id AND m.recipient = inbox.recipient
       GROUP BY inbox.key`,
      [keys, inboxes.map((inbox) => inbox[0]), inboxes.map((inbox) => inbox[1])],
    );
    return new Map(rows.map((row) => [row.key, row.fingerprint]));
  },
};

/** The columns a message is read back with (the id as text: a bigint; `sent_at` in ms). */
const COLUMNS = `m.id::text, m.recipient, m.sender, m.text, m.notification, m.about, m.label, m.task_id,
  floor(extract(epoch FROM m.sent_at) * 1000)::float8 AS sent_at`;

/** A row of {@link COLUMNS}. */
interface MessageRow {
  id: string;
  recipient: string;
  sender: string | null;
  text: string;
  notification: boolean;
  about: string | null;
  label: string | null;
  task_id: string | null;
  sent_at: number;
}

/** The message of `row`: its fields, the absent ones left out. */
function stored(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    to: row.recipient,
    ...(row.sender === null ? {} : { from: row.sender }),
    text: row.text,
    notification: row.notification,
    ...(row.about === null ? {} : { about: row.about }),
    ...(row.label === null ? {} : { label: row.label }),
    ...(row.task_id === null ? {} : { taskId: row.task_id }),
    sentAt: row.sent_at,
  };
}

/** Oldest first (the id is a bigint, so as text it sorts by length, then by digits). */
function byId(rows: MessageRow[]): StoredMessage[] {
  return rows.sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(stored);
}

// A message is too old when it was sent more than maxAgeMs ago ($3 in every query below).
const TOO_OLD = `m.sent_at < now() - $3 * interval '1 millisecond'`;
const FREE = '(m.lease_until IS NULL OR m.lease_until <= now())';
const INBOX = 'm.list_id = $1 AND m.recipient = $2';

/** What {@link sendMessage} writes. */
export interface NewMessage {
  listId: string;
  to: string;
  from?: string | undefined;
  text: string;
  notification: boolean;
  about?: string | undefined;
  label?: string | undefined;
  taskId?: string | undefined;
  /** The sender's token, to find the message again when the answer to its write is lost. */
  sendToken: string;
}

/**
 * The send, in one statement (`raider_send`, see the schema): waits for the inbox, checks its
 * bound, inserts the message and NOTIFYs the inbox. Resolves with the message, or undefined when
 * the inbox was full (nothing written).
 */
export async function sendMessage(
  client: pg.ClientBase,
  message: NewMessage,
  limits: { maxAgeMs: number; maxInboxMessages: number },
): Promise<StoredMessage | undefined> {
  const { rows } = await client.query<MessageRow>({
    // Named, as the other statements of the inboxes: parsed and planned once per connection.
    name: 'raider_send',
    text: `SELECT ${COLUMNS} FROM raider_send($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) AS m`,
    values: [
      message.listId,
      message.to,
      message.from ?? null,
      message.text,
      message.notification,
      message.about ?? null,
      message.label ?? null,
      message.taskId ?? null,
      message.sendToken,
      limits.maxAgeMs,
      limits.maxInboxMessages,
      MESSAGE_CHANNEL,
      inboxKey(message.listId, message.to),
    ],
  });
  return rows[0] && stored(rows[0]);
}

/** The message sent with `sendToken`, if it is in the inbox (committed, and not taken and done since). */
export async function findSent(
  client: pg.ClientBase,
  listId: string,
  agent: string,
  sendToken: string,
): Promise<StoredMessage | undefined> {
  const { rows } = await client.query<MessageRow>(
    `SELECT ${COLUMNS} FROM raider_messages AS m WHERE ${INBOX} AND m.send_token = $3`,
    [listId, agent, sendToken],
  );
  return rows[0] && stored(rows[0]);
}

/**
 * One statement: drops the inbox's free messages that are too old, and reserves for `leaseMs`
 * under `leaseToken` the oldest `max` (null: all) of the others that are free. Rows another take
 * is reserving at this instant are skipped, never waited for (`SKIP LOCKED`): two takes never
 * get one message.
 */
export async function takeMessages(
  client: pg.ClientBase,
  listId: string,
  agent: string,
  maxAgeMs: number,
  options: { max: number | null; leaseMs: number; leaseToken: string },
): Promise<StoredMessage[]> {
  const { rows } = await client.query<MessageRow>({
    name: 'raider_take',
    text: `WITH dropped AS (DELETE FROM raider_messages AS m WHERE ${INBOX} AND ${TOO_OLD} AND ${FREE}),
     picked AS (
       SELECT m.id FROM raider_messages AS m
       WHERE ${INBOX} AND ${FREE} AND NOT ${TOO_OLD}
       ORDER BY m.id LIMIT $4
       FOR UPDATE SKIP LOCKED
     )
     UPDATE raider_messages AS m
     SET lease_until = now() + $5 * interval '1 millisecond', lease_token = $6
     FROM picked WHERE m.id = picked.id
     RETURNING ${COLUMNS}`,
    values: [listId, agent, maxAgeMs, options.max, options.leaseMs, options.leaseToken],
  });
  return byId(rows);
}

/** What waits for `agent` and is free, oldest first (the too old left out), without taking it. */
export async function peekMessages(
  client: pg.ClientBase,
  listId: string,
  agent: string,
  maxAgeMs: number,
): Promise<StoredMessage[]> {
  const { rows } = await client.query<MessageRow>({
    name: 'raider_peek',
    text: `SELECT ${COLUMNS} FROM raider_messages AS m WHERE ${INBOX} AND ${FREE} AND NOT ${TOO_OLD} ORDER BY m.id`,
    values: [listId, agent, maxAgeMs],
  });
  return rows.map(stored);
}

/** Removes the messages `ids` that `leaseToken` still holds (one retaken after its lease lapsed is another's). */
export async function removeTaken(client: pg.ClientBase, ids: string[], leaseToken: string): Promise<void> {
  await client.query({
    name: 'raider_done',
    text: 'DELETE FROM raider_messages WHERE id = ANY($1::bigint[]) AND lease_token = $2',
    values: [ids, leaseToken],
  });
}

/** Frees the messages `ids` that `leaseToken` still holds, and NOTIFYs the inbox when there were any. */
export async function releaseTaken(
  client: pg.ClientBase,
  ids: string[],
  leaseToken: string,
  key: string,
): Promise<void> {
  await client.query({
    name: 'raider_release',
    text: `WITH freed AS (
       UPDATE raider_messages SET lease_until = NULL, lease_token = NULL
       WHERE id = ANY($1::bigint[]) AND lease_token = $2 RETURNING 1
     )
     SELECT pg_notify($3, $4) FROM (SELECT count(*) AS freed FROM freed) AS counted WHERE counted.freed > 0`,
    values: [ids, leaseToken, MESSAGE_CHANNEL, key],
  });
}

/** NOTIFYs the inbox `key` (a lease that lapsed: its messages are free again). */
export async function notifyInbox(client: pg.ClientBase, key: string): Promise<void> {
  await client.query('SELECT pg_notify($1, $2)', [MESSAGE_CHANNEL, key]);
}
