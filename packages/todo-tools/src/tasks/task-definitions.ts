/**
 * The task tools as tools: name, title, description, the schemas clients are shown, annotations,
 * and a handler that answers a plain result (no SDK: the entries' adapters mount them). What each
 * tool does is the handlers' (TaskCalls); this is how a client sees them.
 */

import { advertised, advertisedOutput } from '@raider/kit/schemas';
import { z } from 'zod';
import { type Answer, toResult } from '../answer.js';
import type { ToolDefinition } from '../tool-definition.js';
import { presented, type ToolPresentation } from '../tool-presentation.js';
import type { taskSchemas } from './task-schemas.js';
import { taskItemSchema } from './task-validation.js';

/**
 * What each task tool does and answers, from raw arguments (a call's signal for task_update, and
 * for task_update and task_claim the caller the host authenticated: see ToolCallContext).
 */
export interface TaskToolHandlers {
  /** task_create. */
  create(args: unknown): Promise<Answer>;
  /** task_update; `signal` aborts a call waiting on its TaskCompleted hook; `caller` holds the task's lease. */
  update(args: unknown, signal: AbortSignal | undefined, caller: string | undefined): Promise<Answer>;
  /** task_list. */
  list(args: unknown): Promise<Answer>;
  /** task_get. */
  get(args: unknown): Promise<Answer>;
  /** task_claim; with `caller`, only for that agent, under its lease. */
  claim(args: unknown, caller: string | undefined): Promise<Answer>;
}

/** The output schemas of the tools. */
const OUTPUT = {
  create: { task: taskItemSchema },
  update: {
    success: z.boolean().describe('False when there is no such task.'),
    taskId: z.string(),
    updatedFields: z.array(z.string()),
    task: taskItemSchema.optional().describe('The task after the update; absent when deleted or not found.'),
  },
  list: { tasks: z.array(taskItemSchema) },
  get: { task: taskItemSchema.nullable() },
  claim: {
    success: z.boolean().describe('False when the task could not be taken (the text says why).'),
    taskId: z.string().optional(),
    task: taskItemSchema.optional().describe('The task as claimed.'),
  },
};

/** The output schemas as registered: shown to clients whole, checked by the SDK at no cost (see advertisedOutput). */
const ADVERTISED_OUTPUT = {
  create: advertisedOutput(OUTPUT.create),
  update: advertisedOutput(OUTPUT.update),
  list: advertisedOutput(OUTPUT.list),
  get: advertisedOutput(OUTPUT.get),
  claim: advertisedOutput(OUTPUT.claim),
};

const CLOSED_WORLD = { openWorldHint: false } as const;

/**
 * task_list and task_get change nothing: read-only (Claude Code runs them alongside other calls)
 * and idempotent, which Claude Code 2.1.332 reads to retry a call once after a lost MCP session is
 * recovered (a repeated read does no harm).
 */
const READS = { readOnlyHint: true, idempotentHint: true, ...CLOSED_WORLD } as const;

/**
 * task_create, task_update, task_list and task_get, in that order, answering through `handlers`,
 * with the input schemas `schemas` (one set per limits) and as `presentation` wants them. Frozen.
 */
export function taskToolDefinitions(
  handlers: TaskToolHandlers,
  schemas: ReturnType<typeof taskSchemas>,
  presentation: ToolPresentation,
): readonly ToolDefinition[] {
  const structured = presentation.structuredOutput;
  return Object.freeze([
    presented(
      {
        name: 'task_create',
        title: 'Create task',
        description: 'Add a task to the task list (starts pending). Use for multi-step work; one task per step.',
        inputSchema: advertised(schemas.create),
        outputSchema: ADVERTISED_OUTPUT.create,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ...CLOSED_WORLD },
        handler: async (args) => toResult(await handlers.create(args), structured),
      },
      presentation,
    ),
    presented(
      {
        name: 'task_update',
        title: 'Update task',
        description:
          'Change a task by id: status (in_progress when you start, completed when done, deleted removes it), fields, owner, metadata (merged; null removes a key), dependencies.',
        inputSchema: advertised(schemas.update),
        outputSchema: ADVERTISED_OUTPUT.update,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, ...CLOSED_WORLD },
        handler: async (args, context) =>
          toResult(await handlers.update(args, context.signal, context.caller), structured),
      },
      presentation,
    ),
    ...readTools(handlers, schemas, presentation),
  ]);
}

/** task_list and task_get, the read-only tools (see taskToolDefinitions). */
function readTools(
  handlers: TaskToolHandlers,
  schemas: ReturnType<typeof taskSchemas>,
  presentation: ToolPresentation,
): ToolDefinition[] {
  const structured = presentation.structuredOutput;
  return [
    presented(
      {
        name: 'task_list',
        title: 'List tasks',
        description: 'List all tasks: id, status, subject, owner and unfinished blockers.',
        inputSchema: advertised(schemas.list),
        outputSchema: ADVERTISED_OUTPUT.list,
        annotations: READS,
        handler: async (args) => toResult(await handlers.list(args), structured),
      },
      presentation,
    ),
    presented(
      {
        name: 'task_get',
        title: 'Get task',
        description: 'Show one task in full by id.',
        inputSchema: advertised(schemas.get),
        outputSchema: ADVERTISED_OUTPUT.get,
        annotations: READS,
        handler: async (args) => toResult(await handlers.get(args), structured),
      },
      presentation,
    ),
  ];
}

/** task_claim (opt-in: a tool definition costs context), answering through `handlers`. Frozen. */
export function taskClaimDefinitions(
  handlers: TaskToolHandlers,
  schemas: ReturnType<typeof taskSchemas>,
  presentation: ToolPresentation,
): readonly ToolDefinition[] {
  return Object.freeze([
    presented(
      {
        name: 'task_claim',
        title: 'Claim task',
        description:
          'Take a task for an owner, atomically (sets owner and in_progress; no two agents get the same task). Without taskId, takes the lowest-id free task (pending, unowned, not blocked). With leaseSeconds the claim lapses unless you update the task within that time.',
        inputSchema: advertised(schemas.claim),
        outputSchema: ADVERTISED_OUTPUT.claim,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ...CLOSED_WORLD },
        handler: async (args, context) =>
          toResult(await handlers.claim(args, context.caller), presentation.structuredOutput),
      },
      presentation,
    ),
  ]);
}
