/**
 * todo_write (shaped after Claude Code's TodoWrite): checks the whole list it is given,
 * keeps it in a store when there is one, hands it to `onUpdate` and renders the answer. It holds
 * no list of its own.
 */

import { advertised, advertisedOutput } from '@raider/kit/schemas';
import { oneLine } from '@raider/kit/shown-text';
import { z } from 'zod';
import { type Answer, rejected, storeProblem, toResult } from '../answer.js';
import { TodoWriteListError } from '../errors.js';
import { perLimits, type TaskListLimits } from '../limits.js';
import { received } from '../received.js';
import { objectError, status, TASK_STATUSES, text } from '../schema-fields.js';
import type { ListStore, TodoWriteState } from '../store/list-store.js';
import type { ToolDefinition } from '../tool-definition.js';
import { presented, type ToolPresentation } from '../tool-presentation.js';
import type { TodoWriteItem } from '../types.js';

/**
 * The list as todo_write stores it (activeForm defaulted to content), or a TodoWriteListError naming
 * the first wrong item: not an object, no content, an unknown status, a second in_progress item
 * (or a limit exceeded).
 */
export function checkTodos(items: unknown, itemSchema: z.ZodType, maxItems: number): TodoWriteItem[] {
  if (!Array.isArray(items)) {
    throw new TodoWriteListError(`todos: expected an array of items, received ${received(items)}`, undefined);
  }
  if (items.length > maxItems) {
    throw new TodoWriteListError(`todos: expected at most ${maxItems} items, received ${items.length}`, undefined);
  }
  const list: TodoWriteItem[] = [];
  let inProgress: number | undefined;
  items.forEach((raw, index) => {
    const parsed = itemSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `todos[${index}].${issue.path.join('.')}` : `todos[${index}]`;
      throw new TodoWriteListError(`${where}: ${issue?.message ?? 'invalid item'}`, index);
    }
    const item = parsed.data as { content: string; status: TodoWriteItem['status']; activeForm?: string };
    if (item.status === 'in_progress') {
      if (inProgress !== undefined) {
        throw new TodoWriteListError(
          `todos[${index}].status: expected at most one in_progress item, received a second one (todos[${inProgress}] is in_progress)`,
          index,
        );
      }
      inProgress = index;
    }
    list.push({ content: item.content, status: item.status, activeForm: item.activeForm ?? item.content });
  });
  return list;
}

/**
 * The text todo_write answers: a count line with the number of items per status, then one
 * numbered line per item with its status, so a model reads the state at a glance.
 *
 * ```
 * 3 todos (1 completed, 1 in_progress, 1 pending)
 * 1. [completed] Run the tests
 * 2. [in_progress] Fix the login bug
 * 3. [pending] Update the docs
 * ```
 *
 * Each content is shown on one line (`oneLine` of the kit: a line break as `⏎`, a control
 * character as its control picture), so no item can add a line that reads as another item; the
 * list stored and handed to `onUpdate` keeps what was sent.
 */
export function renderTodos(list: readonly TodoWriteItem[]): string {
  const counts = { completed: 0, in_progress: 0, pending: 0 };
  for (const item of list) counts[item.status] += 1;
  const parts = (['completed', 'in_progress', 'pending'] as const)
    .filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${s}`);
  const head = `${list.length} ${list.length === 1 ? 'todo' : 'todos'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
  return [head, ...list.map((item, i) => `${i + 1}. [${item.status}] ${oneLine(item.content)}`)].join('\n');
}

/** The schema of one todo_write item for one set of limits. */
export function todoItemSchema(limits: TaskListLimits) {
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
export function todoWriteSchema(limits: TaskListLimits) {
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

const todoSchema = z.object({
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string(),
});

/** todo_write's output schema as registered, built once for every object (see advertisedOutput). */
const ADVERTISED_OUTPUT = advertisedOutput({ todos: z.array(todoSchema) });

// One set of schemas per distinct limits, shared by every conversation with the same.
const itemSchemaFor = perLimits(todoItemSchema);
const writeSchemaFor = perLimits(todoWriteSchema);

/** What todo_write is built from (TodoWriteToolCore hands its options on). */
export interface TodoWriteOptions {
  limits: Readonly<TaskListLimits>;
  onUpdate: ((list: TodoWriteItem[]) => void) | undefined;
  store: ListStore<TodoWriteState> | undefined;
  /** Structured results, Claude Code's always-load mark (see ToolPresentation). */
  presentation: ToolPresentation;
}

/** The todo_write tool: check, keep (with a store), hand on, answer. */
export class TodoWrite {
  private readonly itemSchema: ReturnType<typeof todoItemSchema>;
  private readonly writeSchema: ReturnType<typeof todoWriteSchema>;
  private builtDefinitions: readonly ToolDefinition[] | undefined;

  constructor(private readonly options: TodoWriteOptions) {
    this.itemSchema = itemSchemaFor(options.limits);
    this.writeSchema = writeSchemaFor(options.limits);
  }

  /** todo_write as a definition, built once (mounted by an SDK adapter). */
  definitions(): readonly ToolDefinition[] {
    this.builtDefinitions ??= Object.freeze([
      presented(
        {
          name: 'todo_write',
          title: 'Write todo list',
          description:
            'Replace the todo list: send the whole list every time. At most one item in_progress; mark items completed as soon as they are done.',
          inputSchema: advertised(this.writeSchema),
          outputSchema: ADVERTISED_OUTPUT,
          annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
          handler: async (args) => toResult(await this.write(args), this.options.presentation.structuredOutput),
        },
        this.options.presentation,
      ),
    ]);
    return this.builtDefinitions;
  }

  /** The list as todo_write stores it, or a TodoWriteListError naming the first wrong item. */
  check(items: unknown): TodoWriteItem[] {
    return checkTodos(items, this.itemSchema, this.options.limits.maxTodoItems);
  }

  /** What todo_write does and answers, from raw arguments: `{ todos }` and nothing else. */
  async write(args: unknown): Promise<Answer> {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return rejected(`expected an object of arguments { todos }, received ${received(args)}`);
    }
    const unknown = Object.keys(args).filter((key) => key !== 'todos');
    if (unknown.length) {
      const names = unknown.map((key) => received(key)).join(', ');
      return rejected(`unknown ${unknown.length === 1 ? 'argument' : 'arguments'} ${names}`);
    }
    let list: TodoWriteItem[];
    try {
      list = this.check((args as { todos?: unknown }).todos);
    } catch (error) {
      return rejected((error as Error).message);
    }
    if (this.options.store) {
      try {
        await this.options.store.transact(() => ({ next: { todos: list }, result: undefined }));
      } catch (error) {
        return storeProblem('todo', error);
      }
    }
    this.options.onUpdate?.(list);
    return { text: renderTodos(list), isError: false, structured: { todos: list } };
  }
}
