/**
 * One task's file, `<id>.json`, in Claude Code's record shape: how it is read (as Claude Code
 * reads it: the shape checked, unknown keys dropped but raider's `claim`) and written (as Claude
 * Code 2.1.332 writes it: `JSON.stringify(record, null, 2)`, its key order on creation and on
 * update, no trailing newline).
 */
import { nestsDeeperThan } from '@raider/kit/nesting';
import type { TaskClaim, TaskRecord } from '@raider/todo-tools';

const STATUSES = new Set(['pending', 'in_progress', 'completed']);

/**
 * The highest id a list hands out: the largest integer a JavaScript number holds exactly (the
 * same bound as @raider/todo-tools' `MAX_TASK_ID`). A file named beyond it is not a task of the list.
 */
export const MAX_TASK_ID = Number.MAX_SAFE_INTEGER;

/** A task file's name (`12.json`) to its id (`"12"`), or undefined for any other file (or an id beyond MAX_TASK_ID). */
export function taskIdOf(fileName: string): string | undefined {
  const match = /^([1-9][0-9]{0,15})\.json$/.exec(fileName);
  return match && Number(match[1]) <= MAX_TASK_ID ? match[1] : undefined;
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * The record in a task file's text, or the text of what is wrong with it (never quoting the
 * file). `id` is the id its name gives; a record naming another id is refused.
 */
export function parseTaskFile(text: string, id: string, maxMetadataDepth: number): TaskRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return `not valid JSON (${text.length} characters)`;
  }
  return checkRecord(value, id, maxMetadataDepth);
}

/** `value` as a record of task `id` in Claude Code's shape (unknown keys dropped), or the text of what is wrong. */
export function checkRecord(value: unknown, id: string, maxMetadataDepth: number): TaskRecord | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected a JSON object';
  const raw = value as Record<string, unknown>;
  if (raw.id !== id) return `expected "id": "${id}" as its name says, received ${JSON.stringify(raw.id)?.slice(0, 40)}`;
  for (const key of ['subject', 'description'] as const) {
    if (typeof raw[key] !== 'string') return `expected "${key}" to be a string`;
  }
  for (const key of ['activeForm', 'owner'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') return `expected "${key}" to be a string when present`;
  }
  if (typeof raw.status !== 'string' || !STATUSES.has(raw.status)) {
    return 'expected "status" to be one of pending, in_progress, completed';
  }
  for (const key of ['blocks', 'blockedBy'] as const) {
    if (!isStringArray(raw[key])) return `expected "${key}" to be an array of ids`;
  }
  const metadata = raw.metadata;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    return 'expected "metadata" to be an object when present';
  }
  // The kit's walk (iterative: a hostile file cannot overflow the stack) counts the metadata
  // record itself as level 1; a task file's limit counts the levels below it, so one more.
  if (metadata !== undefined && nestsDeeperThan(metadata, maxMetadataDepth + 1)) {
    return `its metadata nests deeper than ${maxMetadataDepth} levels`;
  }
  const claim = raw.claim;
  if (claim !== undefined && !isClaim(claim)) {
    return 'expected "claim" to be {owner, session, leaseSeconds, expiresAt} when present';
  }
  const record: TaskRecord = {
    id,
    subject: raw.subject as string,
    description: raw.description as string,
    status: raw.status as TaskRecord['status'],
    blocks: raw.blocks as string[],
    blockedBy: raw.blockedBy as string[],
  };
  const ordered = withOrder(record, raw.activeForm as string | undefined, raw.owner as string | undefined, metadata);
  if (claim !== undefined) ordered.claim = claim as TaskClaim;
  return ordered;
}

/** True for a claim's lease as raider writes it. */
function isClaim(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const claim = value as Record<string, unknown>;
  return (
    typeof claim.owner === 'string' &&
    typeof claim.session === 'string' &&
    Number.isFinite(claim.leaseSeconds) &&
    Number.isFinite(claim.expiresAt)
  );
}

/** `record` with its optional fields, in the order Claude Code reads a record back. */
function withOrder(record: TaskRecord, activeForm?: string, owner?: string, metadata?: unknown): TaskRecord {
  const ordered = { id: record.id, subject: record.subject, description: record.description } as TaskRecord;
  if (activeForm !== undefined) ordered.activeForm = activeForm;
  if (owner !== undefined) ordered.owner = owner;
  ordered.status = record.status;
  ordered.blocks = record.blocks;
  ordered.blockedBy = record.blockedBy;
  if (metadata !== undefined) ordered.metadata = metadata as Record<string, unknown>;
  return ordered;
}

/**
 * Which of a record's optional keys of Claude Code's it holds (`activeForm`, `owner`, `metadata`),
 * as bits: all a writer needs to know of the file it replaces to write its keys in Claude Code's
 * order (the other keys are always there).
 */
export type RecordKeys = number;

const OPTIONAL_KEYS = ['activeForm', 'owner', 'metadata'] as const;

/** The optional keys `record` holds. */
export function keysOf(record: TaskRecord): RecordKeys {
  let keys = 0;
  OPTIONAL_KEYS.forEach((key, bit) => {
    if (record[key] !== undefined) keys |= 1 << bit;
  });
  return keys;
}

/**
 * The keys a record is created with, as Claude Code creates one: every key but `owner` in the
 * order it reads a record back (`id, subject, description, activeForm, status, blocks, blockedBy,
 * metadata`); an `owner` given at creation comes after them, as a first owner does on an update.
 */
const CREATED: RecordKeys = (1 << 0) | (1 << 2);

/** Claude Code's keys in the order it reads a record back (and writes an update). */
const READ_BACK_ORDER = [
  'id',
  'subject',
  'description',
  'activeForm',
  'owner',
  'status',
  'blocks',
  'blockedBy',
  'metadata',
] as const;

/**
 * The text of a task's file as Claude Code 2.1.332 writes it: `JSON.stringify(record, null, 2)`,
 * no trailing newline. Claude Code writes an update as the record it read back (its keys in the
 * order `id, subject, description, activeForm, owner, status, blocks, blockedBy, metadata`, those
 * absent skipped) with the changes spread over it, so a key the file lacked (a first `owner`) comes
 * last; `before` names the optional keys the file being replaced held (undefined for a new task,
 * written in creation order). raider's own `claim` (a lease) comes after Claude Code's keys, which
 * its reader passes by.
 */
export function formatTaskFile(record: TaskRecord, before: RecordKeys = CREATED): string {
  const ordered: Record<string, unknown> = {};
  const added: string[] = [];
  for (const key of READ_BACK_ORDER) {
    if (record[key] === undefined) continue;
    const bit = (OPTIONAL_KEYS as readonly string[]).indexOf(key);
    if (bit >= 0 && (before & (1 << bit)) === 0) added.push(key);
    else ordered[key] = record[key];
  }
  for (const key of added) ordered[key] = record[key as keyof TaskRecord];
  if (record.claim !== undefined) ordered.claim = record.claim;
  return JSON.stringify(ordered, null, 2);
}
