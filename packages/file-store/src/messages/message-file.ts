/**
 * The files of an inbox folder: a message waiting (`<id>.json`), the same message reserved by a
 * take (renamed `<id>.json.<until>.<token>.lease`), one a send has linked in and is making durable
 * (`<id>.json.sending`), and one that could not be read, moved aside (`<id>.json.corrupt`). A message file holds the stored message (but its id, which its name
 * says) as one line of JSON; it is written once and never changed, only renamed (a lease, a
 * release) and removed (done, expiry).
 */
import type { StoredMessage } from '@raider/tasks-registry';

/** A message waiting: `<id>.json`. */
const WAITING = /^([1-9][0-9]{0,15})\.json$/;
/** A message reserved until `until` (ms since the epoch) by the take `token`. */
const LEASED = /^([1-9][0-9]{0,15})\.json\.([0-9]{1,16})\.([0-9a-f]{16})\.lease$/;

/** A message file of an inbox, as its name tells. */
export interface MessageEntry {
  /** The message's id, as a number (ids are safe integers). */
  readonly id: number;
  /** Its file's name now. */
  readonly name: string;
  /** When its lease ends (ms since the epoch); undefined for a message waiting. */
  readonly until?: number;
}

/** The entry a file name stands for, or undefined for any other file (a temporary, one moved aside). */
export function messageEntry(name: string): MessageEntry | undefined {
  const waiting = WAITING.exec(name);
  if (waiting) {
    const id = Number(waiting[1]);
    return Number.isSafeInteger(id) ? { id, name } : undefined;
  }
  const leased = LEASED.exec(name);
  if (!leased) return undefined;
  const id = Number(leased[1]);
  return Number.isSafeInteger(id) ? { id, name, until: Number(leased[2]) } : undefined;
}

/** The name of message `id` waiting. */
export const waitingName = (id: number): string => `${id}.json`;

/** The name of message `id` reserved until `until` by the take `token` (16 hex digits). */
export const leasedName = (id: number, until: number, token: string): string => `${id}.json.${until}.${token}.lease`;

/** The name of message `id` linked in by a send whose folder fsync has yet to end (no take sees it). */
export const sendingName = (id: number): string => `${id}.json.sending`;

/** The id of a message a send was making durable when it stopped (`<id>.json.sending`), or undefined for any other file. */
export function sendingId(name: string): number | undefined {
  const match = /^([1-9][0-9]{0,15})\.json\.sending$/.exec(name);
  const id = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The name a message file that cannot be read is moved aside to (out of the inbox, kept for a person to look at). */
export const corruptName = (id: number): string => `${id}.json.corrupt`;

/**
 * The text of a message file: the stored message but its id (the file's name says it, so the file
 * is written before the id is handed out) as one line of JSON.
 */
export function formatMessage(message: Omit<StoredMessage, 'id'>): Buffer {
  return Buffer.from(`${JSON.stringify(message)}\n`, 'utf8');
}

const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

/**
 * The message a file holds (message `id`, as its name says), or a reason it cannot be trusted: not
 * JSON, not a message's shape, or not for the inbox's agent. Unknown keys are dropped.
 */
export function parseMessage(text: string, id: number, agent: string): StoredMessage | string {
  let raw: Record<string, unknown>;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
    raw = value as Record<string, unknown>;
  } catch {
    return `not valid JSON (${text.length} characters)`;
  }
  if (raw.to !== agent) return "its recipient is not the inbox's agent";
  if (typeof raw.text !== 'string' || typeof raw.notification !== 'boolean' || !Number.isFinite(raw.sentAt)) {
    return 'expected a message { id, to, text, notification, sentAt, ... }';
  }
  if (![raw.from, raw.about, raw.label, raw.taskId].every(isOptionalString)) {
    return 'expected from, about, label and taskId to be strings when given';
  }
  return {
    id: String(id),
    to: agent,
    ...(raw.from === undefined ? {} : { from: raw.from as string }),
    text: raw.text,
    notification: raw.notification,
    ...(raw.about === undefined ? {} : { about: raw.about as string }),
    ...(raw.label === undefined ? {} : { label: raw.label as string }),
    ...(raw.taskId === undefined ? {} : { taskId: raw.taskId as string }),
    sentAt: raw.sentAt as number,
  };
}
