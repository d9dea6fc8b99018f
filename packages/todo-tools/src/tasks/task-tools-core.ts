/**
 * TaskToolsCore: Claude Code's task tools (its TaskCreate, TaskUpdate, TaskList and TaskGet as
 * task_create, task_update, task_list and task_get, and raider's task_claim), with no MCP SDK:
 * their direct API and their definitions as tools. Each entry's `TaskTools` (`.` for SDK v1,
 * `./v2` for SDK v2) is this class plus the register methods and server of its SDK. One object
 * holds one task list; mount it on one conversation.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_LIMITS, type TaskListLimits } from '../limits.js';
import type { TaskStore } from '../store/task-store.js';
import type { ToolDefinition } from '../tool-definition.js';
import { presentationOf } from '../tool-presentation.js';
import type { TaskEvent, TaskItem, TaskListChange, ToolAnswer } from '../types.js';
import { SyncedTaskList } from './synced-task-list.js';
import { TaskCalls } from './task-calls.js';

/** Options of {@link TaskToolsCore} (and of each entry's `TaskTools`). */
export interface TaskToolsOptions {
  /**
   * Called with the whole task list, in id order, after every call that changed it (never for one
   * that changed nothing or was rejected). It runs synchronously after the change; what it throws
   * reaches the caller.
   */
  onUpdate?: (list: TaskItem[]) => void;
  /**
   * Called after every change of the task list (a call here, or changes made elsewhere that a
   * call or `syncTasks` caught up on) with only what changed: no copy of the whole list, so an
   * observer costs the same at any size.
   */
  onChange?: (change: TaskListChange) => void;
  /**
   * Called before task_create creates a task (`TaskCreated`) and before task_update completes
   * one (`TaskCompleted`), with the task as it would be. Return (or resolve to) undefined to go
   * on, or a text: it becomes the error result and the call changes nothing. A hook that throws
   * rejects the call the same way, with its message.
   */
  beforeTask?: (event: TaskEvent, item: TaskItem) => string | undefined | Promise<string | undefined>;
  /** Size limits; any left out take the defaults of DEFAULT_LIMITS. */
  limits?: Partial<TaskListLimits>;
  /**
   * Where the task list lives, by record. With a store the list is loaded once; before each call
   * what changed elsewhere is applied from the store's change feed, and a change writes only the
   * tasks it touched, in one transaction on top of the latest change. So several objects (and
   * processes) share one list at a cost that does not grow with it; ids stay above every id ever
   * handed out. Without one the list lives in this object.
   */
  store?: TaskStore;
  /**
   * Who this object is to claims (task_claim): a claim's lease is renewed by this session's
   * updates of the task, and only by them. Default: a random id, one per object.
   */
  session?: string;
  /** The clock leases are measured with, in ms since the epoch (default `Date.now`; tests set their own). */
  now?: () => number;
  /**
   * Results carry `structuredContent` beside the text (and the tools declare output schemas).
   * Default false: Claude Code shows its model the structured content instead of the text when a
   * result carries it, so without this the model reads Claude Code's own answers
   * (`Task #1 created successfully: …`, one line per task).
   */
  structuredOutput?: boolean;
  /** The tools carry `_meta["anthropic/alwaysLoad"]: true` (Claude Code does not defer them behind ToolSearch). */
  alwaysLoad?: boolean;
}

/**
 * Claude Code's task tools on one task list, without an SDK (see each entry's `TaskTools`). The
 * tools share the list held by this object; it lasts as long as the object (one per conversation).
 *
 * Mutating calls run one at a time (a hook may be async), so the list stays consistent and ids
 * unique under concurrent calls. Create, update and get cost the same whatever the size of the
 * list; list is linear in it.
 */
export class TaskToolsCore {
  /** The limits in force. */
  readonly limits: Readonly<TaskListLimits>;
  /** The task list, in step with the store when there is one. */
  private readonly list: SyncedTaskList;
  /** What each tool does and answers, on `list`. */
  private readonly calls: TaskCalls;

  constructor(options: TaskToolsOptions = {}) {
    this.limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
    const now = options.now ?? Date.now;
    this.list = new SyncedTaskList({
      store: options.store,
      onUpdate: options.onUpdate,
      onChange: options.onChange,
      now,
      maxMetadataDepth: this.limits.maxMetadataDepth,
    });
    this.calls = new TaskCalls({
      synced: this.list,
      limits: this.limits,
      beforeTask: options.beforeTask,
      session: options.session ?? randomUUID(),
      now,
      presentation: presentationOf(options),
    });
  }

  /**
   * task_create, task_update, task_list and task_get on this object's list, as SDK-neutral
   * definitions (what `register` mounts), in that order. Built once: every call returns the same
   * frozen array.
   */
  definitions(): readonly ToolDefinition[] {
    return this.calls.definitions();
  }

  /** task_claim on this object's list, as a definition (what `registerClaim` mounts). Built once. */
  claimDefinitions(): readonly ToolDefinition[] {
    return this.calls.claimDefinitions();
  }

  /**
   * What task_claim does and answers: `Claimed task #3: Write the parser`, `Task #3 is already
   * claimed by alice`, `Task #3 is blocked by #1, #2`, `No task is free to claim`, …
   */
  async claimTask(args: unknown): Promise<ToolAnswer> {
    const { text, isError } = await this.calls.claim(args);
    return { text, isError };
  }

  /** A copy of the task list in `onUpdate`'s shape, in id order. */
  tasks(): TaskItem[] {
    return this.list.items();
  }

  /**
   * With a task store: applies what changed elsewhere (another object or process on the same
   * store) since the last call, and calls `onUpdate` when anything did. Call it when the store's
   * `watch` says something changed, so a board or a subscription hears of it. Resolves to whether
   * anything changed; rejects when the store cannot be read.
   */
  syncTasks(): Promise<boolean> {
    return this.list.sync();
  }

  /** Empties the task list in memory (an application's /clear). Ids go on counting. Calls no hook; writes no store. */
  clearTasks(): void {
    this.list.clear();
  }

  /**
   * Takes over a task list in `onUpdate`'s shape (a resumed session's journal) in place of the
   * current one, calling neither `onUpdate` nor `beforeTask`. The next id follows the highest id
   * of the list. Links are mirrored; links to tasks not in the list are dropped.
   *
   * @throws InvalidListError (a TypeError) naming what is wrong when `list` is not such a list; the list is then unchanged.
   */
  restoreTasks(list: readonly TaskItem[]): void {
    this.list.restore(list);
  }

  /** What task_create does and answers: a new pending task with the next id. */
  async createTask(args: unknown): Promise<ToolAnswer> {
    const { text, isError } = await this.calls.create(args);
    return { text, isError };
  }

  /**
   * What task_update does and answers: `Updated task #ID FIELDS`, `Updated task #ID deleted`, or
   * `Task not found`. With `options.signal` aborted while the TaskCompleted hook runs, it answers
   * `Interrupted: the task was not changed.` (an error) and saves nothing.
   */
  async updateTask(args: unknown, options: { signal?: AbortSignal } = {}): Promise<ToolAnswer> {
    const { text, isError } = await this.calls.update(args, options.signal);
    return { text, isError };
  }

  /** What task_list answers: one line per task, or `No tasks found` (from the list in memory; the tools load a store first). */
  listTasks(): string {
    return this.calls.listAnswer().text;
  }

  /** What task_get answers for `id`, or `Task not found`. */
  getTask(id: string): string {
    return this.calls.getAnswer(id).text;
  }
}
