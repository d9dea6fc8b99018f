/**
 * Claude Code's task tools (its TaskCreate, TaskUpdate, TaskList and TaskGet as task_create,
 * task_update, task_list and task_get, and raider's task_claim): what each does and answers, on
 * one task list held in memory and, with a store, kept there between calls, and their definitions
 * as tools (no SDK: the entries' adapters mount them). TaskToolsCore holds one.
 */
import { z } from 'zod';
import { type Answer, invalid, rejected, storeProblem, toResult } from '../answer.js';
import { InvalidListError } from '../errors.js';
import { perLimits, type TaskListLimits } from '../limits.js';
import { tooDeeplyNested } from '../metadata.js';
import { formatIssues } from '../schema-fields.js';
import { serial } from '../serial.js';
import { isSnapshot, MAX_TASK_ID, type TaskCatchUp, type TaskRecord, type TaskStore } from '../store/task-store.js';
import type { ToolDefinition } from '../tool-definition.js';
import { advertised, advertisedOutput, jsonRecord } from '../tool-input.js';
import { presented, type ToolPresentation, type ToolSpec } from '../tool-presentation.js';
import type { TaskEvent, TaskItem, TaskListChange } from '../types.js';
import { repairCreate, repairTaskId, repairUpdate } from './claude-repairs.js';
import { type StoredTask, toItem } from './stored-task.js';
import {
  asSeen,
  type ClaimArgs,
  claimTask,
  expireLeases,
  leaseLapsed,
  leaseOnUpdate,
  nextLapse,
} from './task-claims.js';
import { TaskList, type UpdateArgs } from './task-list.js';
import { taskSchemas } from './task-schemas.js';
import { getText, isInternal, listLine } from './task-text.js';

/** What the task tools are built from (TaskToolsCore hands its options on). */
export interface TaskCallsOptions {
  limits: Readonly<TaskListLimits>;
  onUpdate: ((list: TaskItem[]) => void) | undefined;
  onChange: ((change: TaskListChange) => void) | undefined;
  beforeTask: ((event: TaskEvent, item: TaskItem) => string | undefined | Promise<string | undefined>) | undefined;
  store: TaskStore | undefined;
  /** Who this object is to claims: a claim's lease is renewed by, and only by, its session. */
  session: string;
  /** The clock leases are measured with (ms since the epoch). */
  now: () => number;
  /** Structured results, Claude Code's always-load mark (see ToolPresentation). */
  presentation: ToolPresentation;
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

/** A record as a store hands it in (Claude Code's shape). */
const recordSchema = z.object({
  id: z.string().regex(/^[1-9][0-9]*$/, 'expected a decimal id such as "1"'),
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
  .array(taskItemSchema.extend({ id: z.string().regex(/^[1-9][0-9]*$/, 'expected a decimal id such as "1"') }))
  .refine((list) => new Set(list.map((t) => t.id)).size === list.length, 'expected unique ids');

/** The output schemas of the four tools. */
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

/** The input schemas, one set per distinct limits (shared by every conversation with the same). */
const schemasFor = perLimits(taskSchemas);

/** The output schemas as registered: shown to clients whole, checked by the SDK at no cost (see advertisedOutput). */
const ADVERTISED_OUTPUT = {
  create: advertisedOutput(OUTPUT.create),
  update: advertisedOutput(OUTPUT.update),
  list: advertisedOutput(OUTPUT.list),
  get: advertisedOutput(OUTPUT.get),
  claim: advertisedOutput(OUTPUT.claim),
};

const CLOSED_WORLD = { openWorldHint: false } as const;

/** Where a change keeps what its `put` is read from: a hidden key, so spreads and JSON see only put, removed and whole. */
const PUT_FROM = Symbol('tasks put');
type PutFrom = { list: TaskList; ids: ReadonlySet<string>; now: number; put?: TaskItem[] };

/**
 * The `put` getter of every change handed to onChange, copying the tasks on first read: one
 * function shared by all, so every change has the same shape. A getter made per change gave each
 * change a hidden class of its own, held outside the young generation, which kept each call's
 * garbage alive through every minor collection (one took 1.2 ms during task_updates, 0.3 ms now).
 */
function putTasks(this: { [PUT_FROM]: PutFrom }): TaskItem[] {
  const from = this[PUT_FROM];
  from.put ??= [...from.ids].flatMap((id) => {
    const task = from.list.get(id);
    return task ? [toItem(asSeen(task, from.now))] : [];
  });
  return from.put;
}

/** Claude Code 2.1.332's answer to a task_update interrupted while its TaskCompleted hook runs. */
const INTERRUPTED = 'Interrupted: the task was not changed.';

/** `promise`, or a rejection as soon as `signal` aborts (the promise itself goes on, unheeded). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/** What changed in the list in memory: the ids, `true` for the whole list (a reload), undefined for nothing. */
type Changed = Set<string> | true | undefined;

/** `changed` with the ids a call put or removed. */
function merged(changed: Changed, wrote: { put: string[]; removed: string[] }): Changed {
  if (wrote.put.length === 0 && wrote.removed.length === 0) return changed;
  if (changed === true) return true;
  const ids = new Set(changed ?? []);
  for (const id of wrote.put) ids.add(id);
  for (const id of wrote.removed) ids.add(id);
  return ids;
}

/**
 * The task tools on one list. Mutating calls run one at a time (a hook may be async), so the list
 * stays consistent and ids unique under concurrent calls. Create, update and get cost the same
 * whatever the size of the list; list is linear in it.
 */
export class TaskCalls {
  private readonly list = new TaskList();
  private readonly schemas: ReturnType<typeof taskSchemas>;
  /** Runs mutating calls (and reads of a store) one after another. */
  private readonly exclusive = serial();
  /** Bumped by clear and restore, so a call waiting on a hook sees the list was replaced. */
  private generation = 0;
  /**
   * With a store: the sequence of the store's change feed the list in memory reflects; -1 when
   * the list must be loaded whole (before the first call, after clear, restore or a failure).
   */
  private seq = -1;
  /** The tasks this session claimed with a lease (its updates of them renew it, or are refused once it lapsed). */
  private readonly claimedHere = new Set<string>();
  /** Wakes this object when the first lease of the list ends (so observers hear of the lapse at its deadline). */
  private lapseTimer: { at: number; timer: NodeJS.Timeout } | undefined;
  private builtDefinitions: readonly ToolDefinition[] | undefined;
  private builtClaimDefinitions: readonly ToolDefinition[] | undefined;

  constructor(private readonly options: TaskCallsOptions) {
    this.schemas = schemasFor(options.limits);
  }

  /** True when results carry structuredContent (structured output on). */
  private get structured(): boolean {
    return this.options.presentation.structuredOutput;
  }

  /** task_create, task_update, task_list and task_get as definitions, built once (mounted by an SDK adapter). */
  definitions(): readonly ToolDefinition[] {
    this.builtDefinitions ??= Object.freeze([
      this.defined({
        name: 'task_create',
        title: 'Create task',
        description: 'Add a task to the task list (starts pending). Use for multi-step work; one task per step.',
        inputSchema: advertised(this.schemas.create),
        outputSchema: ADVERTISED_OUTPUT.create,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ...CLOSED_WORLD },
        handler: async (args) => toResult(await this.create(args), this.structured),
      }),
      this.defined({
        name: 'task_update',
        title: 'Update task',
        description:
          'Change a task by id: status (in_progress when you start, completed when done, deleted removes it), fields, owner, metadata (merged; null removes a key), dependencies.',
        inputSchema: advertised(this.schemas.update),
        outputSchema: ADVERTISED_OUTPUT.update,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, ...CLOSED_WORLD },
        handler: async (args, context) => toResult(await this.update(args, context.signal), this.structured),
      }),
      this.defined({
        name: 'task_list',
        title: 'List tasks',
        description: 'List all tasks: id, status, subject, owner and unfinished blockers.',
        inputSchema: advertised(this.schemas.list),
        outputSchema: ADVERTISED_OUTPUT.list,
        annotations: { readOnlyHint: true, ...CLOSED_WORLD },
        handler: async (args) => {
          const parsed = this.schemas.list.safeParse(args);
          return toResult(
            parsed.success ? await this.read(() => this.listAnswer()) : invalid(parsed.error),
            this.structured,
          );
        },
      }),
      this.defined({
        name: 'task_get',
        title: 'Get task',
        description: 'Show one task in full by id.',
        inputSchema: advertised(this.schemas.get),
        outputSchema: ADVERTISED_OUTPUT.get,
        annotations: { readOnlyHint: true, ...CLOSED_WORLD },
        handler: async (args) => {
          const parsed = this.schemas.get.safeParse(repairTaskId(args));
          return toResult(
            parsed.success ? await this.read(() => this.getAnswer(parsed.data.taskId)) : invalid(parsed.error),
            this.structured,
          );
        },
      }),
    ]);
    return this.builtDefinitions;
  }

  /** task_claim as a definition, built once (opt-in: a tool definition costs context). */
  claimDefinitions(): readonly ToolDefinition[] {
    this.builtClaimDefinitions ??= Object.freeze([
      this.defined({
        name: 'task_claim',
        title: 'Claim task',
        description:
          'Take a task for an owner, atomically (sets owner and in_progress; no two agents get the same task). Without taskId, takes the lowest-id free task (pending, unowned, not blocked). With leaseSeconds the claim lapses unless you update the task within that time.',
        inputSchema: advertised(this.schemas.claim),
        outputSchema: ADVERTISED_OUTPUT.claim,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, ...CLOSED_WORLD },
        handler: async (args) => toResult(await this.claim(args), this.structured),
      }),
    ]);
    return this.builtClaimDefinitions;
  }

  /** A tool of this list as its presentation wants it. */
  private defined(spec: ToolSpec): ToolDefinition {
    return presented(spec, this.options.presentation);
  }

  /** What task_claim does and answers, from raw arguments. */
  claim(args: unknown): Promise<Answer> {
    const parsed = this.schemas.claim.safeParse(repairTaskId(args));
    if (!parsed.success) return Promise.resolve(invalid(parsed.error));
    const claim: ClaimArgs = parsed.data;
    return this.mutate(async () => {
      const outcome = claimTask(this.list, claim, this.options.session, this.options.now());
      if (!outcome.task) {
        return {
          text: outcome.text,
          isError: false,
          structured: { success: false, ...(claim.taskId ? { taskId: claim.taskId } : {}) },
        };
      }
      if (claim.leaseSeconds !== undefined) this.claimedHere.add(outcome.task.id);
      else this.claimedHere.delete(outcome.task.id);
      return {
        text: outcome.text,
        isError: false,
        changed: true,
        structured: { success: true, taskId: outcome.task.id, task: toItem(outcome.task) },
      };
    });
  }

  /** The list in `onUpdate`'s shape, in id order (a task whose lease ran out shown pending and unowned). */
  tasks(): TaskItem[] {
    const now = this.options.now();
    return Array.from(this.list.ordered(), (task) => toItem(asSeen(task, now)));
  }

  /** Empties the list in memory; ids go on counting. */
  clear(): void {
    this.list.clear();
    this.generation += 1;
    this.seq = -1;
  }

  /** Takes over a list in `onUpdate`'s shape. @throws InvalidListError (a TypeError) naming what is wrong; nothing changes then. */
  restore(items: readonly TaskItem[]): void {
    this.list.restore(this.validList('restoreTasks', items));
    this.generation += 1;
    this.seq = -1;
  }

  /**
   * With a store: applies what changed elsewhere since the last call (the store's change feed)
   * and calls onUpdate when anything did. Resolves to whether anything changed; rejects when the
   * store cannot be read (the list in memory is then loaded whole at the next call).
   */
  sync(): Promise<boolean> {
    const store = this.options.store;
    if (!store) return Promise.resolve(false);
    return this.exclusive(async () => {
      const changed = await this.catchUp(store);
      this.notify(changed);
      return (await this.releaseLapsed()) || changed !== undefined;
    });
  }

  /** What task_create does and answers, from raw arguments. */
  create(args: unknown): Promise<Answer> {
    // Claude Code's repairs first (a model trained on it sends `title`, a `task` wrapper, …).
    const repaired = repairCreate(args);
    if ('steer' in repaired) return Promise.resolve({ text: repaired.steer, isError: true });
    const parsed = this.schemas.create.safeParse(repaired.args);
    return parsed.success ? this.createTask(parsed.data) : Promise.resolve(invalid(parsed.error));
  }

  /** What task_update does and answers, from raw arguments. */
  /**
   * What task_update does and answers, from raw arguments. `signal` is the call's: aborted while
   * the TaskCompleted hook runs, the call answers `Interrupted: the task was not changed.` and
   * nothing is saved, whatever the hook says later.
   */
  update(args: unknown, signal?: AbortSignal): Promise<Answer> {
    const parsed = this.schemas.update.safeParse(repairUpdate(args));
    return parsed.success ? this.updateTask(parsed.data, signal) : Promise.resolve(invalid(parsed.error));
  }

  /** What task_list answers, from the list in memory. */
  listAnswer(): Answer {
    const lines: string[] = [];
    const items: TaskItem[] = [];
    const now = this.options.now();
    for (const stored of this.list.ordered()) {
      if (isInternal(stored)) continue;
      const task = asSeen(stored, now);
      lines.push(listLine(task, this.list));
      items.push(toItem(task));
    }
    return { text: lines.length ? lines.join('\n') : 'No tasks found', isError: false, structured: { tasks: items } };
  }

  /** What task_get answers for `id`, from the list in memory. */
  getAnswer(id: string): Answer {
    const stored = this.list.get(id);
    if (!stored) return { text: 'Task not found', isError: false, structured: { task: null } };
    const task = asSeen(stored, this.options.now());
    return { text: getText(task, this.list), isError: false, structured: { task: toItem(task) } };
  }

  private validList(what: string, items: unknown): TaskItem[] {
    const tooDeep = tooDeeplyNested(items, this.options.limits.maxMetadataDepth);
    if (tooDeep) throw new InvalidListError(`${what}: ${tooDeep}`);
    const parsed = restoreSchema.safeParse(items);
    if (!parsed.success) {
      throw new InvalidListError(`${what}: expected a task list in onUpdate's shape: ${formatIssues(parsed.error)}`);
    }
    return parsed.data;
  }

  /** Checks records a store handed in. @throws InvalidListError naming the first wrong one. */
  private validRecords(records: readonly TaskRecord[]): TaskRecord[] {
    const tooDeep = tooDeeplyNested(records, this.options.limits.maxMetadataDepth);
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

  /**
   * Applies a store's catch-up (a delta, or the whole list) to the list in memory. Returns what
   * changed: the ids (`true`: the whole list was read), or undefined for nothing.
   */
  private apply(catchUp: TaskCatchUp): Changed {
    if (isSnapshot(catchUp)) {
      if (!Number.isSafeInteger(catchUp.highWaterMark) || catchUp.highWaterMark < 0) {
        throw new InvalidListError(
          `the stored high-water mark is not a whole number: ${JSON.stringify(catchUp.highWaterMark)}`,
        );
      }
      this.list.load(this.validRecords(catchUp.tasks), catchUp.highWaterMark);
      this.seq = catchUp.seq;
      return true;
    }
    this.list.merge(this.validRecords(catchUp.put), catchUp.removed, catchUp.highWaterMark);
    this.seq = catchUp.seq;
    const ids = [...catchUp.put.map((record) => record.id), ...catchUp.removed];
    return ids.length ? new Set(ids) : undefined;
  }

  /** Tells the observers what changed: onUpdate the whole list (its contract), onChange only the tasks that changed. */
  private notify(changed: Changed): void {
    if (changed === undefined) return;
    this.armLapse();
    this.options.onUpdate?.(this.tasks());
    const onChange = this.options.onChange;
    if (!onChange) return;
    if (changed === true) {
      onChange({ put: this.tasks(), removed: [], whole: true });
      return;
    }
    const removed = [...changed].filter((id) => !this.list.get(id));
    // The tasks put are copied only when the observer reads them (a server that only needs to
    // know that something changed pays nothing for the copies).
    const change = {} as TaskListChange;
    Object.defineProperty(change, PUT_FROM, { value: { list: this.list, ids: changed, now: this.options.now() } });
    Object.defineProperty(change, 'put', { enumerable: true, configurable: true, get: putTasks });
    onChange(Object.assign(change, { removed, whole: false }));
  }

  /** Brings the list in memory up to the store's latest sequence; returns what changed. */
  private async catchUp(store: TaskStore): Promise<Changed> {
    try {
      const delta = this.seq < 0 ? undefined : await store.changesSince(this.seq);
      return this.apply(delta ?? (await store.load()));
    } catch (error) {
      this.seq = -1;
      throw error;
    }
  }

  /**
   * Runs a call that may change the list: one at a time and, with a store, inside one
   * transaction of the store: what changed elsewhere is applied first, then the call, and what it
   * wrote is committed on top of the latest sequence. onUpdate follows a change only once it is
   * saved. When the store fails, the list is loaded whole at the next call.
   */
  private mutate(call: () => Promise<Answer>): Promise<Answer> {
    return this.exclusive(() => this.mutateNow(call));
  }

  /** What `mutate` does, for a caller already running exclusively. */
  private async mutateNow(call: () => Promise<Answer>): Promise<Answer> {
    const store = this.options.store;
    let answer: Answer;
    let changed: Changed;
    // Runs the call recording what it touched; true when it (or a lapsed lease) changed the list.
    const run = async (undoable: boolean) => {
      this.list.track(undoable);
      const lapsed = expireLeases(this.list, this.options.now()).length > 0;
      const result = await call();
      return { result, wrote: result.changed === true || lapsed };
    };
    try {
      if (!store) {
        const { result, wrote } = await run(false);
        answer = result;
        if (wrote) changed = merged(undefined, this.list.trackedIds());
      } else {
        const committed = await store.transact(this.seq, async (catchUp) => {
          changed = this.apply(catchUp);
          const { result, wrote } = await run(true);
          if (!wrote) return { result };
          const write = this.list.trackedWrite();
          changed = merged(changed, { put: write.put.map((record) => record.id), removed: write.removed });
          return { write, result };
        });
        answer = committed.result;
        this.seq = committed.seq;
      }
      this.list.settle();
    } catch (error) {
      // What the call changed is undone; the next call loads the stored list whole.
      this.list.rollback();
      this.seq = -1;
      return storeProblem('task', error);
    }
    this.notify(changed);
    return answer;
  }

  /**
   * Writes the release of every lease that has run out (a transaction with no call of its own:
   * `mutateNow` lets lapsed leases go first), so the store and every observer see it. Resolves to
   * whether one was released. For a caller running exclusively.
   */
  private async releaseLapsed(): Promise<boolean> {
    const now = this.options.now();
    let lapsed = false;
    for (const id of this.list.leased) {
      const task = this.list.get(id);
      if (task && leaseLapsed(task, now)) lapsed = true;
    }
    if (!lapsed) return false;
    // A store that cannot be written now is no harm: every reader sees the lapse anyway, and the
    // next change (or the next wake-up) writes it.
    const answer = await this.mutateNow(async () => ({ text: '', isError: false }));
    return !answer.isError;
  }

  /**
   * Wakes this object when the first lease of the list ends, to release it (and tell the
   * observers: a board redraws at the deadline, not at the next change). One timer per object,
   * unref'd, holding the object only weakly (a conversation that ended is not kept by it).
   */
  private armLapse(minimumMs = 0): void {
    const at = nextLapse(this.list);
    if (this.lapseTimer && this.lapseTimer.at === at) return;
    this.clearLapseTimer();
    if (at === undefined) return;
    const self = new WeakRef(this);
    // A lease already run out (its release could not be written) waits `minimumMs`.
    const due = at - this.options.now();
    const delay = Math.min((due > 0 ? due : minimumMs) + 5, 2 ** 31 - 1);
    const timer = setTimeout(() => void self.deref()?.lapseDue(), delay);
    timer.unref();
    this.lapseTimer = { at, timer };
  }

  /** Stops the lapse timer, if one is set. */
  private clearLapseTimer(): void {
    if (this.lapseTimer) clearTimeout(this.lapseTimer.timer);
    this.lapseTimer = undefined;
  }

  /** The timer's call: catches up (with a store), releases what lapsed, and sets the timer for the next lease. */
  private lapseDue(): Promise<void> {
    return this.exclusive(async () => {
      this.lapseTimer = undefined;
      const store = this.options.store;
      try {
        if (store) this.notify(await this.catchUp(store));
        await this.releaseLapsed();
      } catch {
        // The store cannot be read now: readers still see the lapse; the next call catches up.
      }
      // A lapse still due here could not be written (the store is down): tried again in a second,
      // not in a loop (the catch-up above may have set a timer for it already: replaced).
      this.clearLapseTimer();
      this.armLapse(1000);
    });
  }

  /** Runs a read, after applying what changed in the store since the last call. */
  private read(call: () => Answer): Promise<Answer> {
    const store = this.options.store;
    if (!store) return Promise.resolve(call());
    return this.exclusive(async () => {
      let changed: Changed;
      try {
        changed = await this.catchUp(store);
      } catch (error) {
        return storeProblem('task', error);
      }
      this.notify(changed);
      await this.releaseLapsed();
      return call();
    });
  }

  /** Runs the beforeTask hook; the text of a refusal, or undefined to go on. */
  private async runHook(event: TaskEvent, task: StoredTask, signal?: AbortSignal): Promise<string | undefined> {
    const hook = this.options.beforeTask;
    if (!hook) return undefined;
    const generation = this.generation;
    let verdict: string | undefined;
    try {
      verdict = (await untilAborted(Promise.resolve(hook(event, toItem(task))), signal)) ?? undefined;
    } catch (error) {
      // Claude Code 2.1.332's answer to a call interrupted during its TaskCompleted check.
      if (signal?.aborted) return INTERRUPTED;
      return `${event} hook failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (typeof verdict === 'string') return verdict === '' ? `${event} hook blocked the call` : verdict;
    if (generation !== this.generation) {
      return `The task list was cleared or replaced while the ${event} hook ran; nothing was changed`;
    }
    return undefined;
  }

  private metadataTooLarge(metadata: Record<string, unknown> | undefined): string | undefined {
    if (metadata === undefined) return undefined;
    const size = JSON.stringify(metadata).length;
    const max = this.options.limits.maxMetadataSize;
    return size > max ? `metadata: expected at most ${max} characters as JSON, received ${size} characters` : undefined;
  }

  private createTask(args: z.output<ReturnType<typeof taskSchemas>['create']>): Promise<Answer> {
    return this.mutate(async () => {
      const { maxTasks } = this.options.limits;
      if (this.list.nextId > MAX_TASK_ID) {
        return rejected(
          `the list has handed out every id up to ${MAX_TASK_ID}, the highest a task list can hand out; start a new list`,
        );
      }
      if (this.list.size >= maxTasks) {
        return rejected(
          `the list already holds ${this.list.size} tasks, the most it takes (maxTasks ${maxTasks}); complete and delete tasks first`,
        );
      }
      const draft = this.list.draft(args);
      const tooLarge = this.metadataTooLarge(draft.metadata);
      if (tooLarge) return rejected(tooLarge);
      const refusal = await this.runHook('TaskCreated', draft);
      if (refusal !== undefined) return { text: refusal, isError: true };
      const task = this.list.create(args);
      return {
        text: `Task #${task.id} created successfully: ${task.subject}`,
        isError: false,
        changed: true,
        structured: { task: toItem(task) },
      };
    });
  }

  private updateTask(args: UpdateArgs, signal?: AbortSignal): Promise<Answer> {
    return this.mutate(async () => {
      const task = this.list.get(args.taskId);
      if (!task) {
        // Not an error, as in Claude Code.
        return {
          text: 'Task not found',
          isError: false,
          structured: { success: false, taskId: args.taskId, updatedFields: [] },
        };
      }
      const lease = leaseOnUpdate(task, this.options.session, this.claimedHere.has(task.id), this.options.now());
      if (lease && 'refuse' in lease) return rejected(lease.refuse);
      if (args.status === 'deleted') {
        this.claimedHere.delete(task.id);
        // Deleted at once; other fields of the same call are not saved.
        this.list.delete(task.id);
        return {
          text: `Updated task #${task.id} deleted`,
          isError: false,
          changed: true,
          structured: { success: true, taskId: task.id, updatedFields: ['deleted'] },
        };
      }
      const plan = this.list.plan(task, args);
      if (typeof plan === 'string') return rejected(plan);
      const tooLarge = this.metadataTooLarge(plan.next.metadata);
      if (tooLarge) return rejected(tooLarge);
      if (plan.completes) {
        const refusal = await this.runHook('TaskCompleted', plan.next, signal);
        if (refusal !== undefined) return { text: refusal, isError: true };
      }
      const renewed = lease && 'renewed' in lease ? lease.renewed : undefined;
      if (plan.fields.length === 0) {
        // Touching the task renews its lease (a write), though no field changed.
        if (renewed) this.list.replace({ ...task, claim: renewed });
        return {
          text: `Updated task #${task.id} (no changes)`,
          isError: false,
          ...(renewed ? { changed: true } : {}),
          structured: { success: true, taskId: task.id, updatedFields: [], task: toItem(task) },
        };
      }
      // Completing the task, or handing it to another owner, ends the claim; any other update renews it.
      if (plan.next.status === 'completed' || plan.fields.includes('owner')) {
        delete plan.next.claim;
        this.claimedHere.delete(task.id);
      } else if (renewed) plan.next.claim = renewed;
      const next = this.list.apply(plan);
      return {
        text: `Updated task #${next.id} ${plan.fields.join(', ')}`,
        isError: false,
        changed: true,
        structured: { success: true, taskId: next.id, updatedFields: plan.fields, task: toItem(next) },
      };
    });
  }
}
