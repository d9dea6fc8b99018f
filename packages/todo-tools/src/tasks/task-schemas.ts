/**
 * The zod input schemas of the task tools and todo_write. The same schema is what an MCP client
 * sees in tools/list, what the SDK checks a call against, and what the direct API checks, so
 * both paths reject the same inputs with the same messages. Unknown keys are rejected, as
 * Claude Code does. Each message says what was expected and what was received; the path of the
 * field goes before it (`todos.1.status: expected one of …`).
 */
import { z } from 'zod';
import type { TodoLimits } from '../limits.js';
import { nestsDeeperThan } from '../metadata.js';
import { received } from '../received.js';
import { jsonRecord } from '../tool-input.js';

/**
 * The issues of a failed parse in one line, each as `field: message` (`metadata: expected an
 * object of keys and values, received []`), joined by `; `.
 */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** A string with a length limit; a blank one (empty or white space only) is rejected unless `blank`. */
function text(max: number, { blank }: { blank: boolean }) {
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
function record(maxDepth: number) {
  return jsonRecord((issue) => `expected an object of keys and values, received ${received(issue.input)}`).refine(
    (value) => !nestsDeeperThan(value, maxDepth),
    { error: `expected at most ${maxDepth} levels of nesting, received a value nested deeper` },
  );
}

// Ids are Claude Code's decimal strings; any other string is simply not found, as in Claude Code.
function taskId() {
  return z.string({ error: (issue) => `expected a task id such as "1", received ${received(issue.input)}` });
}

function idList(max: number) {
  return z
    .array(taskId(), {
      error: (issue) => `expected an array of task ids such as ["1"], received ${received(issue.input)}`,
    })
    .refine((ids) => ids.length <= max, {
      error: (issue) => `expected at most ${max} ids, received ${(issue.input as unknown[]).length}`,
    });
}

function status<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) => `expected one of ${values.join(', ')}, received ${received(issue.input)}`,
  });
}

/** The error of an object schema: unknown keys named, anything else described. */
const objectError = (what: string) => (issue: { code?: string; keys?: string[]; input?: unknown }) =>
  issue.code === 'unrecognized_keys'
    ? `unknown ${issue.keys?.length === 1 ? 'argument' : 'arguments'} ${issue.keys?.map((k) => JSON.stringify(k)).join(', ')}`
    : `expected ${what}, received ${received(issue.input)}`;

/** The statuses a stored task or todo item can have. */
export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const;
/** The statuses task_update accepts: the stored ones and `deleted`, which removes the task. */
export const UPDATE_STATUSES = ['pending', 'in_progress', 'completed', 'deleted'] as const;

/** The input schemas of task_create, task_update, task_get and task_list for one set of limits. */
export function taskSchemas(limits: TodoLimits) {
  const create = z.strictObject(
    {
      subject: text(limits.maxSubjectLength, { blank: false }).describe(
        'Brief imperative title ("Fix the login bug").',
      ),
      description: text(limits.maxDescriptionLength, { blank: true }).describe('What needs to be done.'),
      activeForm: text(limits.maxActiveFormLength, { blank: false })
        .optional()
        .describe('Shown while in progress ("Fixing the login bug").'),
      metadata: record(limits.maxMetadataDepth).optional().describe('Key/value data to attach.'),
    },
    { error: objectError('an object of arguments') },
  );

  const update = z.strictObject(
    {
      taskId: taskId().describe('Id of the task to update.'),
      subject: text(limits.maxSubjectLength, { blank: false }).optional().describe('New brief imperative title.'),
      description: text(limits.maxDescriptionLength, { blank: true }).optional().describe('New description.'),
      activeForm: text(limits.maxActiveFormLength, { blank: false })
        .optional()
        .describe('New present-continuous form shown while in progress.'),
      status: status(UPDATE_STATUSES).optional().describe('deleted removes the task.'),
      addBlocks: idList(limits.maxDependencies).optional().describe('Ids of tasks that wait for this one.'),
      addBlockedBy: idList(limits.maxDependencies).optional().describe('Ids of tasks this one waits for.'),
      owner: text(limits.maxOwnerLength, { blank: true }).optional().describe('Who works on it; empty clears.'),
      metadata: record(limits.maxMetadataDepth).optional().describe('Keys to merge; null removes a key.'),
    },
    { error: objectError('an object of arguments') },
  );

  const get = z.strictObject(
    { taskId: taskId().describe('Id of the task.') },
    { error: objectError('an object of arguments') },
  );

  const list = z.strictObject({}, { error: objectError('no arguments') });

  return { create, update, get, list };
}

/** The schema of one todo_write item for one set of limits. */
export function todoItemSchema(limits: TodoLimits) {
  return z.strictObject(
    {
      content: text(limits.maxSubjectLength, { blank: false }).describe('What to do, imperative.'),
      status: status(TASK_STATUSES).describe('pending, in_progress (at most one item) or completed.'),
      activeForm: text(limits.maxActiveFormLength, { blank: false })
        .optional()
        .describe('Present continuous form; defaults to content.'),
    },
    { error: objectError('an item { content, status, activeForm? }') },
  );
}

/** The input schema of todo_write for one set of limits. */
export function todoWriteSchema(limits: TodoLimits) {
  return z.strictObject(
    {
      todos: z
        .array(todoItemSchema(limits), {
          error: (issue) => `expected an array of items, received ${received(issue.input)}`,
        })
        .refine((items) => items.length <= limits.maxTodoItems, {
          error: (issue) =>
            `expected at most ${limits.maxTodoItems} items, received ${(issue.input as unknown[]).length}`,
        })
        .describe('The whole updated list; at most one item in_progress.'),
    },
    { error: objectError('an object of arguments') },
  );
}
