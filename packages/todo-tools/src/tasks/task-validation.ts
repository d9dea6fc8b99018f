/**
 * The checks on a task list the task tools take over whole: a list in `onUpdate`'s shape
 * (`restoreTasks`) and the records a store hands in. A list that does not validate is refused
 * with an InvalidListError that says what is wrong, never half-taken.
 */

import { formatIssues } from '@raider/kit/schemas';
import { z } from 'zod';
import { InvalidListError } from '../errors.js';
import { tooDeeplyNested } from '../metadata.js';
import type { TaskRecord } from '../store/task-store.js';
import { jsonRecord } from '../tool-input.js';
import type { TaskItem } from '../types.js';

/** A task in `onUpdate`'s shape (TaskItem); the task tools' output schemas show it too. */
export const taskItemSchema = z.object({
  id: z.string(),
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string(),
  description: z.string(),
  blocks: z.array(z.string()),
  blockedBy: z.array(z.string()),
  owner: z.string().optional(),
  metadata: jsonRecord().optional(),
});

const DECIMAL_ID = 'expected a decimal id such as "1"';

/** A record as a store hands it in (Claude Code's shape, and raider's `claim`). */
const recordSchema = z.object({
  id: z.string().regex(/^[1-9][0-9]*$/, DECIMAL_ID),
  subject: z.string(),
  description: z.string(),
  activeForm: z.string().optional(),
  owner: z.string().optional(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  blocks: z.array(z.string()),
  blockedBy: z.array(z.string()),
  metadata: jsonRecord().optional(),
  claim: z
    .object({
      owner: z.string(),
      session: z.string(),
      leaseSeconds: z.number(),
      expiresAt: z.number(),
    })
    .optional(),
});

const restoreSchema = z
  .array(taskItemSchema.extend({ id: z.string().regex(/^[1-9][0-9]*$/, DECIMAL_ID) }))
  .refine((list) => new Set(list.map((t) => t.id)).size === list.length, 'expected unique ids');

/**
 * `items` as a task list in `onUpdate`'s shape, or an InvalidListError prefixed with `what` (the
 * method it was handed to): metadata nested deeper than `maxDepth` (checked first, without
 * recursion), a field of the wrong type, an id that is not decimal, or two tasks with one id.
 */
export function validTaskItems(what: string, items: unknown, maxDepth: number): TaskItem[] {
  const tooDeep = tooDeeplyNested(items, maxDepth);
  if (tooDeep) throw new InvalidListError(`${what}: ${tooDeep}`);
  const parsed = restoreSchema.safeParse(items);
  if (!parsed.success) {
    throw new InvalidListError(`${what}: expected a task list in onUpdate's shape: ${formatIssues(parsed.error)}`);
  }
  return parsed.data;
}

/**
 * `records` (as a store handed them in) checked, or an InvalidListError naming the first wrong
 * one by its id (cut to 20 characters: a stored id may be anything). Metadata nested deeper than
 * `maxDepth` is refused first, before anything is parsed.
 */
export function validTaskRecords(records: readonly TaskRecord[], maxDepth: number): TaskRecord[] {
  const tooDeep = tooDeeplyNested(records, maxDepth);
  if (tooDeep) throw new InvalidListError(`the stored list: ${tooDeep}`);
  const valid: TaskRecord[] = [];
  for (const record of records) {
    const parsed = recordSchema.safeParse(record);
    if (!parsed.success) {
      throw new InvalidListError(
        `the stored task ${JSON.stringify(String(record?.id).slice(0, 20))}: ${formatIssues(parsed.error)}`,
      );
    }
    valid.push(parsed.data);
  }
  return valid;
}
