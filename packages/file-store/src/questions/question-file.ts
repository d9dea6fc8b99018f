/**
 * The files of a list's `.questions/` folder: question `ask_<n>` is the file `<n>.json`, holding
 * the question but its id (its name says it) as one line of JSON. It is written whole under a
 * temporary name and renamed in (an ask, a settle), so a reader finds the old version or the new,
 * never half of one; names are those of an inbox (`<n>.json.sending` while a write is made durable,
 * `<n>.json.corrupt` for one moved aside), so the inboxes' watch and publish serve it unchanged.
 */
import type { QuestionOutcome, StoredQuestion, StoredQuestionState } from '@raider/tasks-registry';

/** A question's file: `<n>.json`. */
const QUESTION_FILE = /^([1-9][0-9]{0,15})\.json$/;
/** A question's id: `ask_<n>`. */
const QUESTION_ID = /^ask_([1-9][0-9]{0,15})$/;
const STATES: ReadonlySet<string> = new Set(['open', 'answered', 'declined', 'withdrawn', 'expired']);

/** The number of question file `name` (`<n>.json`), or undefined for any other file. */
export function questionFileNumber(name: string): number | undefined {
  const match = QUESTION_FILE.exec(name);
  const n = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The number of question id `id` (`ask_<n>`), or undefined for a string no ask hands out. */
export function questionNumber(id: string): number | undefined {
  const match = QUESTION_ID.exec(id);
  const n = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The id of question number `n`. */
export const questionId = (n: number): string => `ask_${n}`;

/** The question as its file keeps it: all but the id, the state as written (an expiry is not). */
export type QuestionRecord = Omit<StoredQuestion, 'id'>;

/** The text of a question's file: the record as one line of JSON. */
export function formatQuestion(record: QuestionRecord): Buffer {
  return Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
}

/** `record` settled with `outcome` at `time`: only the fields of that outcome, as the memory store keeps them. */
export function settledRecord(record: QuestionRecord, outcome: QuestionOutcome, time: number): QuestionRecord {
  return {
    asker: record.asker,
    question: record.question,
    options: record.options,
    askedAt: record.askedAt,
    expiresAt: record.expiresAt,
    state: outcome.state,
    ...(outcome.state === 'answered' ? { answer: outcome.answer } : {}),
    ...(outcome.by === undefined ? {} : { settledBy: outcome.by }),
    ...(outcome.state !== 'answered' && outcome.reason !== undefined ? { reason: outcome.reason } : {}),
    settledAt: time,
  };
}

/**
 * Question `n` as it stands at `now`: `expired` when open at or past `expiresAt`; undefined when
 * it ended (settled, or expired) `keepSettledMs` ago or more, so it is gone (the caller removes it).
 */
export function asRead(
  record: QuestionRecord,
  n: number,
  now: number,
  keepSettledMs: number,
): StoredQuestion | undefined {
  const expired = record.state === 'open' && now >= record.expiresAt;
  // An expiry is not written: it ended at `expiresAt` (so does an `expired` another writer wrote without a time).
  const endedAt =
    record.state === 'open' ? (expired ? record.expiresAt : undefined) : (record.settledAt ?? record.expiresAt);
  if (endedAt !== undefined && now - endedAt >= keepSettledMs) return undefined;
  return { id: questionId(n), ...record, ...(expired ? { state: 'expired' as const } : {}) };
}

const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

/**
 * The record a question file holds, or the reason it cannot be trusted: not JSON, or not a
 * question's shape. Unknown keys are dropped; the reason never quotes the file (a length instead).
 */
export function parseQuestion(text: string): QuestionRecord | string {
  let raw: Record<string, unknown>;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
    raw = value as Record<string, unknown>;
  } catch {
    return `not valid JSON (${text.length} characters)`;
  }
  const options = raw.options;
  if (
    typeof raw.asker !== 'string' ||
    typeof raw.question !== 'string' ||
    !Array.isArray(options) ||
    !options.every((option) => typeof option === 'string') ||
    !Number.isFinite(raw.askedAt) ||
    !Number.isFinite(raw.expiresAt) ||
    typeof raw.state !== 'string' ||
    !STATES.has(raw.state)
  ) {
    return 'expected a question { asker, question, options, askedAt, expiresAt, state, ... }';
  }
  const state = raw.state as StoredQuestionState;
  if (state === 'answered' && raw.answer !== null && typeof raw.answer !== 'string') {
    return 'expected the answer of an answered question to be a string or null';
  }
  if (
    ![raw.settledBy, raw.reason].every(isOptionalString) ||
    !(raw.settledAt === undefined || Number.isFinite(raw.settledAt))
  ) {
    return 'expected settledBy and reason to be strings, and settledAt a time, when given';
  }
  if (state !== 'open' && state !== 'expired' && raw.settledAt === undefined) {
    return `expected a ${state} question to say when it was settled (settledAt)`;
  }
  return {
    asker: raw.asker,
    question: raw.question,
    options: options as string[],
    askedAt: raw.askedAt as number,
    expiresAt: raw.expiresAt as number,
    state,
    ...(state === 'answered' ? { answer: raw.answer as string | null } : {}),
    ...(raw.settledBy === undefined ? {} : { settledBy: raw.settledBy as string }),
    ...(raw.reason === undefined ? {} : { reason: raw.reason as string }),
    ...(raw.settledAt === undefined ? {} : { settledAt: raw.settledAt as number }),
  };
}
