/**
 * The fields the task tools' and todo_write's input schemas are made of. The same schema is what
 * an MCP client sees in tools/list (advertised) and what the tools check their arguments with, so
 * both paths reject the same inputs with the same messages. Each message says what was expected
 * and what was received; the path of the field goes before it (`todos.1.status: expected one of …`).
 */
import { z } from 'zod';
import { nestsDeeperThan } from './metadata.js';
import { received } from './received.js';
import { jsonRecord } from './tool-input.js';

/** A string with a length limit; a blank one (empty or white space only) is rejected unless `blank`. */
export function text(max: number, { blank }: { blank: boolean }) {
  let schema = z.string({ error: (issue) => `expected a string, received ${received(issue.input)}` });
  if (!blank) {
    schema = schema.refine((s) => s.trim() !== '', {
      error: (issue) => `expected a non-empty text, received ${received(issue.input)}`,
    });
  }
  return schema.refine((s) => s.length <= max, {
    error: (issue) => `expected at most ${max} characters, received ${(issue.input as string).length} characters`,
  });
}

/** Metadata: a record of JSON values nested at most `maxDepth` levels (checked without recursion). */
export function record(maxDepth: number) {
  return jsonRecord((issue) => `expected an object of keys and values, received ${received(issue.input)}`).refine(
    (value) => !nestsDeeperThan(value, maxDepth),
    { error: `expected at most ${maxDepth} levels of nesting, received a value nested deeper` },
  );
}

// Ids are Claude Code's decimal strings; any other string is simply not found, as in Claude Code.
export function taskId() {
  return z.string({ error: (issue) => `expected a task id such as "1", received ${received(issue.input)}` });
}

export function idList(max: number) {
  return z
    .array(taskId(), {
      error: (issue) => `expected an array of task ids such as ["1"], received ${received(issue.input)}`,
    })
    .refine((ids) => ids.length <= max, {
      error: (issue) => `expected at most ${max} ids, received ${(issue.input as unknown[]).length}`,
    });
}

export function status<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) => `expected one of ${values.join(', ')}, received ${received(issue.input)}`,
  });
}

/** The error of an object schema: unknown keys named, anything else described. */
export const objectError = (what: string) => (issue: { code?: string; keys?: string[]; input?: unknown }) =>
  issue.code === 'unrecognized_keys'
    ? `unknown ${issue.keys?.length === 1 ? 'argument' : 'arguments'} ${issue.keys?.map((k) => JSON.stringify(k)).join(', ')}`
    : `expected ${what}, received ${received(issue.input)}`;

/** The statuses a stored task or todo item can have. */
export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const;
/** The statuses task_update accepts: the stored ones and `deleted`, which removes the task. */
export const UPDATE_STATUSES = ['pending', 'in_progress', 'completed', 'deleted'] as const;
