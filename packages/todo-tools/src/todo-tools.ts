/**
 * TodoTools: the task tools (task_create, task_update, task_list, task_get) and todo_write of
 * seed 000, as MCP tools. One object holds one task list; mount it on one conversation.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DEFAULT_LIMITS, type TodoLimits } from './limits.js';
import { tooDeeplyNested } from './metadata.js';
import { received } from './received.js';
import { serial } from './serial.js';
import type { ListStore, TaskListState, TodoWriteState } from './store/list-store.js';
import { type StoredTask, TaskStore, toItem, type UpdateArgs } from './tasks/task-list.js';
import { formatIssues, taskSchemas, todoItemSchema, todoWriteSchema } from './tasks/task-schemas.js';
import { getText, isInternal, listLine } from './tasks/task-text.js';
import { checkTodos, renderTodos } from './todo-write/todo-write.js';
import { advertised, jsonRecord } from './tool-input.js';
import type { TaskEvent, TaskItem, TodoItem, ToolAnswer } from './types.js';
import { VERSION } from './version.js';

/** Options of {@link TodoTools}. */
export interface TodoToolsOptions {
  /**
   * Called with the whole list after every call that changed it (never for one that changed
   * nothing or was rejected): the task list in id order for the task tools, the checked list for
   * todo_write. It runs synchronously after the change; what it throws reaches the caller.
   */
  onUpdate?: (list: TaskItem[] | TodoItem[]) => void;
  /**
   * Called before task_create creates a task (`TaskCreated`) and before task_update completes
   * one (`TaskCompleted`), with the task as it would be. Return (or resolve to) undefined to go
   * on, or a text: it becomes the error result and the call changes nothing. Only the task tools
   * call it. A hook that throws rejects the call the same way, with its message.
   */
  beforeTask?: (event: TaskEvent, item: TaskItem) => string | undefined | Promise<string | undefined>;
  /** Size limits; any left out take the defaults of DEFAULT_LIMITS. */
  limits?: Partial<TodoLimits>;
  /**
   * Where the task list lives. With a store every call loads the list, applies itself and writes
   * it back in one transaction, so several objects (and processes) can share one list; ids stay
   * above every id ever handed out. Without one the list lives in this object.
   */
  taskStore?: ListStore<TaskListState>;
  /** Where todo_write's last list is kept; without one todo_write holds nothing. */
  todoWriteStore?: ListStore<TodoWriteState>;
}

/** An answer with the structured content the MCP tool returns beside the text. */
interface Answer extends ToolAnswer {
  structured?: Record<string, unknown>;
  /** True when the call changed the list (onUpdate follows, a store writes). */
  changed?: boolean;
}

/** An error answer: every rejection the tools give reads `Error: <what was wrong>`. */
function rejected(message: string): Answer {
  return { text: `Error: ${message}`, isError: true };
}

/** The error answer for a store that failed: its own message says what and where. */
function storeProblem(list: 'task' | 'todo', error: unknown): Answer {
  return rejected(
    `the ${list} list could not be read or saved: ${error instanceof Error ? error.message : String(error)}`,
  );
}

const taskItemSchema = z.object({
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

const todoSchema = z.object({
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string(),
});

const restoreSchema = z
  .array(taskItemSchema.extend({ id: z.string().regex(/^[1-9][0-9]*$/, 'expected a decimal id such as "1"') }))
  .refine((list) => new Set(list.map((t) => t.id)).size === list.length, 'expected unique ids');

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
  todoWrite: { todos: z.array(todoSchema) },
};

const CLOSED_WORLD = { openWorldHint: false } as const;

/** The error answer for arguments that failed their schema: `Error: field: expected …, received …`. */
function invalid(error: z.ZodError): Answer {
  return rejected(formatIssues(error));
}

function toResult(answer: Answer): CallToolResult {
  const content = [{ type: 'text' as const, text: answer.text }];
  if (answer.isError) return { content, isError: true };
  return { content, structuredContent: answer.structured ?? {} };
}

/**
 * The task-list tools of one conversation. The task tools share one list held by this object;
 * todo_write holds none (it checks the list it is given and hands it to `onUpdate`).
 *
 * Mutating calls run one at a time (a hook may be async), so the list stays consistent and ids
 * unique under concurrent calls. Create, update and get cost the same whatever the size of the
 * list; list is linear in it.
 */
export class TodoTools {
  /** The limits in force. */
  readonly limits: Readonly<TodoLimits>;
  private readonly store = new TaskStore();
  private readonly onUpdate: TodoToolsOptions['onUpdate'];
  private readonly beforeTask: TodoToolsOptions['beforeTask'];
  private readonly taskStore: ListStore<TaskListState> | undefined;
  private readonly todoWriteStore: ListStore<TodoWriteState> | undefined;
  private readonly schemas: ReturnType<typeof taskSchemas>;
  private readonly writeSchema: ReturnType<typeof todoWriteSchema>;
  private readonly itemSchema: ReturnType<typeof todoItemSchema>;
  /** Runs mutating calls (and reads of a store) one after another. */
  private readonly exclusive = serial();
  /** Bumped by clearTasks and restoreTasks, so a call waiting on a hook sees the list was replaced. */
  private generation = 0;
  private builtTaskServer: McpServer | undefined;
  private builtServer: McpServer | undefined;

  constructor(options: TodoToolsOptions = {}) {
    this.onUpdate = options.onUpdate;
    this.beforeTask = options.beforeTask;
    this.taskStore = options.taskStore;
    this.todoWriteStore = options.todoWriteStore;
    this.limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
    this.schemas = taskSchemas(this.limits);
    this.writeSchema = todoWriteSchema(this.limits);
    this.itemSchema = todoItemSchema(this.limits);
  }

  /** An McpServer with task_create, task_update, task_list and task_get on this object's list, built once. */
  get taskServer(): McpServer {
    if (!this.builtTaskServer) {
      this.builtTaskServer = new McpServer({ name: 'raider-tasks', version: VERSION });
      this.registerTaskTools(this.builtTaskServer);
    }
    return this.builtTaskServer;
  }

  /** An McpServer with todo_write, built once. */
  get server(): McpServer {
    if (!this.builtServer) {
      this.builtServer = new McpServer({ name: 'raider-todo-write', version: VERSION });
      this.registerTodoWrite(this.builtServer);
    }
    return this.builtServer;
  }

  /** Mounts task_create, task_update, task_list and task_get (on this object's list) on a server you own. */
  registerTaskTools(server: McpServer): void {
    server.registerTool(
      'task_create',
      {
        title: 'Create task',
        description: 'Add a task to the task list (starts pending). Use for multi-step work; one task per step.',
        inputSchema: advertised(this.schemas.create),
        outputSchema: OUTPUT.create,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ...CLOSED_WORLD },
      },
      async (args) => toResult(await this.createFrom(args)),
    );
    server.registerTool(
      'task_update',
      {
        title: 'Update task',
        description:
          'Change a task by id: status (in_progress when you start, completed when done, deleted removes it), fields, owner, metadata (merged; null removes a key), dependencies.',
        inputSchema: advertised(this.schemas.update),
        outputSchema: OUTPUT.update,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, ...CLOSED_WORLD },
      },
      async (args) => toResult(await this.updateFrom(args)),
    );
    server.registerTool(
      'task_list',
      {
        title: 'List tasks',
        description: 'List all tasks: id, status, subject, owner and unfinished blockers.',
        inputSchema: advertised(this.schemas.list),
        outputSchema: OUTPUT.list,
        annotations: { readOnlyHint: true, ...CLOSED_WORLD },
      },
      async (args) => {
        const parsed = this.schemas.list.safeParse(args);
        if (!parsed.success) return toResult(invalid(parsed.error));
        return toResult(await this.read(() => this.list()));
      },
    );
    server.registerTool(
      'task_get',
      {
        title: 'Get task',
        description: 'Show one task in full by id.',
        inputSchema: advertised(this.schemas.get),
        outputSchema: OUTPUT.get,
        annotations: { readOnlyHint: true, ...CLOSED_WORLD },
      },
      async (args) => {
        const parsed = this.schemas.get.safeParse(args);
        if (!parsed.success) return toResult(invalid(parsed.error));
        return toResult(await this.read(() => this.get(parsed.data.taskId)));
      },
    );
  }

  /** Mounts todo_write on a server you own. */
  registerTodoWrite(server: McpServer): void {
    server.registerTool(
      'todo_write',
      {
        title: 'Write todo list',
        description:
          'Replace the todo list: send the whole list every time. At most one item in_progress; mark items completed as soon as they are done.',
        inputSchema: advertised(this.writeSchema),
        outputSchema: OUTPUT.todoWrite,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, ...CLOSED_WORLD },
      },
      async (args) => toResult(await this.writeFrom(args)),
    );
  }

  /**
   * The list as todo_write stores it (activeForm defaulted to content), or throws a
   * TodoListError naming the first wrong item (its index and what is wrong).
   */
  check(items: unknown): TodoItem[] {
    return checkTodos(items, this.itemSchema, this.limits.maxTodoItems);
  }

  /** The text todo_write answers for `list`: a count line, then one line per item. */
  render(list: readonly TodoItem[]): string {
    return renderTodos(list);
  }

  /** A copy of the task list in `onUpdate`'s shape, in id order. */
  tasks(): TaskItem[] {
    return Array.from(this.store.byId.values(), toItem);
  }

  /** Empties the task list in memory (an application's /clear). Ids go on counting. Calls no hook; writes no store. */
  clearTasks(): void {
    this.store.clear();
    this.generation += 1;
  }

  /**
   * Takes over a task list in `onUpdate`'s shape (a resumed session's journal) in place of the
   * current one, calling neither `onUpdate` nor `beforeTask`. The next id follows the highest id
   * of the list. Links are mirrored; links to tasks not in the list are dropped.
   *
   * @throws TypeError naming what is wrong when `list` is not such a list; the list is then unchanged.
   */
  restoreTasks(list: readonly TaskItem[]): void {
    this.store.restore(this.validList('restoreTasks', list));
    this.generation += 1;
  }

  private validList(fn: string, list: unknown): TaskItem[] {
    const tooDeep = tooDeeplyNested(list, this.limits.maxMetadataDepth);
    if (tooDeep) throw new TypeError(`${fn}: ${tooDeep}`);
    const parsed = restoreSchema.safeParse(list);
    if (!parsed.success) {
      throw new TypeError(`${fn}: expected a task list in onUpdate's shape: ${formatIssues(parsed.error)}`);
    }
    return parsed.data;
  }

  /** Takes over the state a task store holds (a fresh list when it holds none). */
  private loadState(state: TaskListState | undefined): void {
    const nextId = state?.nextId;
    if (nextId !== undefined && (!Number.isSafeInteger(nextId) || nextId < 1)) {
      throw new TypeError(`the stored nextId is not a whole number of at least 1: ${JSON.stringify(nextId)}`);
    }
    this.store.restore(this.validList('the stored list', state?.tasks ?? []), nextId);
  }

  /** The state a task store keeps. */
  private stateOf(): TaskListState {
    return { tasks: this.tasks(), nextId: this.store.nextId };
  }

  /**
   * Runs a call that may change the task list: one at a time in this object and, with a store,
   * inside one transaction on the stored list. onUpdate follows a change only once it is saved.
   */
  private mutate(fn: () => Promise<Answer>): Promise<Answer> {
    return this.exclusive(async () => {
      const store = this.taskStore;
      let answer: Answer;
      if (!store) {
        answer = await fn();
      } else {
        try {
          answer = await store.transact(async (current) => {
            this.loadState(current);
            const out = await fn();
            return out.changed ? { next: this.stateOf(), result: out } : { result: out };
          });
        } catch (error) {
          // The list in memory may be ahead of what was saved: take the saved one back.
          await store
            .load()
            .then((saved) => this.loadState(saved))
            .catch(() => {});
          return storeProblem('task', error);
        }
      }
      if (answer.changed) this.changed();
      return answer;
    });
  }

  /** Runs a read, after loading the stored list when there is a store. */
  private read(fn: () => Answer): Promise<Answer> {
    const store = this.taskStore;
    if (!store) return Promise.resolve(fn());
    return this.exclusive(async () => {
      try {
        this.loadState(await store.load());
      } catch (error) {
        return storeProblem('task', error);
      }
      return fn();
    });
  }

  /** What task_create does and answers: a new pending task with the next id. */
  async createTask(args: unknown): Promise<ToolAnswer> {
    const { text, isError } = await this.createFrom(args);
    return { text, isError };
  }

  private createFrom(args: unknown): Promise<Answer> {
    const parsed = this.schemas.create.safeParse(args);
    return parsed.success ? this.create(parsed.data) : Promise.resolve(invalid(parsed.error));
  }

  /** What task_update does and answers: `Updated task #ID FIELDS`, `Updated task #ID deleted`, or `Task not found`. */
  async updateTask(args: unknown): Promise<ToolAnswer> {
    const { text, isError } = await this.updateFrom(args);
    return { text, isError };
  }

  private updateFrom(args: unknown): Promise<Answer> {
    const parsed = this.schemas.update.safeParse(args);
    return parsed.success ? this.update(parsed.data) : Promise.resolve(invalid(parsed.error));
  }

  /** What task_list answers: one line per task, or `No tasks found` (from the list in memory; the tools load a store first). */
  listTasks(): string {
    return this.list().text;
  }

  /** What task_get answers for `id`, or `Task not found`. */
  getTask(id: string): string {
    return this.get(id).text;
  }

  /** Asks beforeTask; the text of a refusal, or undefined to go on. */
  private async ask(event: TaskEvent, task: StoredTask): Promise<string | undefined> {
    if (!this.beforeTask) return undefined;
    const generation = this.generation;
    let verdict: string | undefined;
    try {
      verdict = (await this.beforeTask(event, toItem(task))) ?? undefined;
    } catch (error) {
      return `${event} hook failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (typeof verdict === 'string') return verdict === '' ? `${event} hook blocked the call` : verdict;
    if (generation !== this.generation) {
      return `The task list was cleared or replaced while the ${event} hook ran; nothing was changed`;
    }
    return undefined;
  }

  private changed(): void {
    this.onUpdate?.(this.tasks());
  }

  private metadataTooLarge(metadata: Record<string, unknown> | undefined): string | undefined {
    if (metadata === undefined) return undefined;
    const size = JSON.stringify(metadata).length;
    const max = this.limits.maxMetadataSize;
    return size > max ? `metadata: expected at most ${max} characters as JSON, received ${size} characters` : undefined;
  }

  private create(args: z.output<ReturnType<typeof taskSchemas>['create']>): Promise<Answer> {
    return this.mutate(async () => {
      if (this.store.size >= this.limits.maxTasks) {
        return rejected(
          `the list already holds ${this.store.size} tasks, the most it takes (maxTasks ${this.limits.maxTasks}); complete and delete tasks first`,
        );
      }
      const draft = this.store.draft(args);
      const tooLarge = this.metadataTooLarge(draft.metadata);
      if (tooLarge) return rejected(tooLarge);
      const refusal = await this.ask('TaskCreated', draft);
      if (refusal !== undefined) return { text: refusal, isError: true };
      const task = this.store.create(args);
      return {
        text: `Task #${task.id} created successfully: ${task.subject}`,
        isError: false,
        changed: true,
        structured: { task: toItem(task) },
      };
    });
  }

  private update(args: UpdateArgs): Promise<Answer> {
    return this.mutate(async () => {
      const task = this.store.get(args.taskId);
      if (!task) {
        // Not an error, as in Claude Code.
        return {
          text: 'Task not found',
          isError: false,
          structured: { success: false, taskId: args.taskId, updatedFields: [] },
        };
      }
      if (args.status === 'deleted') {
        // Deleted at once; other fields of the same call are not saved.
        this.store.delete(task.id);
        return {
          text: `Updated task #${task.id} deleted`,
          isError: false,
          changed: true,
          structured: { success: true, taskId: task.id, updatedFields: ['deleted'] },
        };
      }
      const plan = this.store.plan(task, args);
      if (typeof plan === 'string') return rejected(plan);
      const tooLarge = this.metadataTooLarge(plan.next.metadata);
      if (tooLarge) return rejected(tooLarge);
      if (plan.completes) {
        const refusal = await this.ask('TaskCompleted', plan.next);
        if (refusal !== undefined) return { text: refusal, isError: true };
      }
      if (plan.fields.length === 0) {
        return {
          text: `Updated task #${task.id} (no changes)`,
          isError: false,
          structured: { success: true, taskId: task.id, updatedFields: [], task: toItem(task) },
        };
      }
      const next = this.store.apply(plan);
      return {
        text: `Updated task #${next.id} ${plan.fields.join(', ')}`,
        isError: false,
        changed: true,
        structured: { success: true, taskId: next.id, updatedFields: plan.fields, task: toItem(next) },
      };
    });
  }

  private list(): Answer {
    const lines: string[] = [];
    const items: TaskItem[] = [];
    for (const task of this.store.byId.values()) {
      if (isInternal(task)) continue;
      lines.push(listLine(task, this.store));
      items.push(toItem(task));
    }
    return { text: lines.length ? lines.join('\n') : 'No tasks found', isError: false, structured: { tasks: items } };
  }

  private get(id: string): Answer {
    const task = this.store.get(id);
    if (!task) return { text: 'Task not found', isError: false, structured: { task: null } };
    return { text: getText(task), isError: false, structured: { task: toItem(task) } };
  }

  /** todo_write's arguments: `{ todos }` and nothing else; `check` words what is wrong with the list. */
  private writeFrom(args: unknown): Promise<Answer> {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return Promise.resolve(rejected(`expected an object of arguments { todos }, received ${received(args)}`));
    }
    const unknown = Object.keys(args).filter((key) => key !== 'todos');
    if (unknown.length) {
      const names = unknown.map((key) => received(key)).join(', ');
      return Promise.resolve(rejected(`unknown ${unknown.length === 1 ? 'argument' : 'arguments'} ${names}`));
    }
    return this.write((args as { todos?: unknown }).todos);
  }

  private async write(items: unknown): Promise<Answer> {
    let list: TodoItem[];
    try {
      list = this.check(items);
    } catch (error) {
      return rejected((error as Error).message);
    }
    if (this.todoWriteStore) {
      try {
        await this.todoWriteStore.transact(() => ({ next: { todos: list }, result: undefined }));
      } catch (error) {
        return storeProblem('todo', error);
      }
    }
    this.onUpdate?.(list);
    return { text: renderTodos(list), isError: false, structured: { todos: list } };
  }
}
