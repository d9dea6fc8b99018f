/**
 * What each of Claude Code's task tools does and answers (its TaskCreate, TaskUpdate, TaskList
 * and TaskGet as task_create, task_update, task_list and task_get, and raider's task_claim), on
 * one SyncedTaskList: the arguments repaired as Claude Code repairs them and checked, the hooks
 * run, the change made and the answer worded as Claude Code words it. TaskToolsCore holds one.
 */
import { oneLine } from '@raider/kit/shown-text';
import type { z } from 'zod';
import { type Answer, invalid, rejected } from '../answer.js';
import { perLimits, type TaskListLimits } from '../limits.js';
import { received } from '../received.js';
import { MAX_TASK_ID } from '../store/task-store.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { ToolPresentation } from '../tool-presentation.js';
import type { TaskEvent, TaskItem } from '../types.js';
import { repairCreate, repairTaskId, repairUpdate } from './claude-repairs.js';
import { type StoredTask, toItem } from './stored-task.js';
import type { SyncedTaskList } from './synced-task-list.js';
import { asSeen, type ClaimArgs, claimTask, type LeaseHolder, leaseOnUpdate } from './task-claims.js';
import { type TaskToolHandlers, taskClaimDefinitions, taskToolDefinitions } from './task-definitions.js';
import { type BeforeTask, runBeforeTask } from './task-hooks.js';
import type { TaskList, UpdateArgs, UpdatePlan } from './task-list.js';
import { taskSchemas } from './task-schemas.js';
import { getText, isInternal, listLine } from './task-text.js';

/** What the task tools' calls are built from (TaskToolsCore hands its options on). */
export interface TaskCallsOptions {
  /** The list the calls run on, in step with its store. */
  synced: SyncedTaskList;
  /** The limits in force (a create past `maxTasks`, metadata past `maxMetadataSize` are refused). */
  limits: Readonly<TaskListLimits>;
  /** TaskToolsOptions' `beforeTask`. */
  beforeTask: BeforeTask | undefined;
  /**
   * Who this object is to claims made without a caller: such a claim's lease is renewed by, and
   * only by, this session (a call the host authenticated holds leases by its caller instead).
   */
  session: string;
  /** The clock leases are measured with (ms since the epoch). */
  now: () => number;
  /** Structured results, Claude Code's always-load mark (see ToolPresentation). */
  presentation: ToolPresentation;
}

/**
 * The key of a claim made here in TaskCalls' `claimedHere`: the holder and the task, apart (a
 * session's id and an agent's name never meet: the `agent` flag is part of the key).
 */
const hereKey = (holder: LeaseHolder, id: string): string => JSON.stringify([holder.agent, holder.name, id]);

/** The input schemas, one set per distinct limits (shared by every conversation with the same). */
const schemasFor = perLimits(taskSchemas);

/**
 * The task tools' calls on one list. Create, update and get cost the same whatever the size of
 * the list; list is linear in it.
 */
export class TaskCalls implements TaskToolHandlers {
  private readonly schemas: ReturnType<typeof taskSchemas>;
  /**
   * The tasks this object claimed with a lease, by holder and id (see `hereKey`): the holder's
   * updates of them renew it, or are refused once it lapsed.
   */
  private readonly claimedHere = new Set<string>();
  private builtDefinitions: readonly ToolDefinition[] | undefined;
  private builtClaimDefinitions: readonly ToolDefinition[] | undefined;

  constructor(private readonly options: TaskCallsOptions) {
    this.schemas = schemasFor(options.limits);
  }

  /** The list in memory the calls change (inside the synced list's `mutate`) and read. */
  private get taskList(): TaskList {
    return this.options.synced.list;
  }

  /** task_create, task_update, task_list and task_get as definitions, built once (mounted by an SDK adapter). */
  definitions(): readonly ToolDefinition[] {
    this.builtDefinitions ??= taskToolDefinitions(this, this.schemas, this.options.presentation);
    return this.builtDefinitions;
  }

  /** task_claim as a definition, built once (opt-in: a tool definition costs context). */
  claimDefinitions(): readonly ToolDefinition[] {
    this.builtClaimDefinitions ??= taskClaimDefinitions(this, this.schemas, this.options.presentation);
    return this.builtClaimDefinitions;
  }

  /** What task_create does and answers, from raw arguments. */
  create(args: unknown): Promise<Answer> {
    // Claude Code's repairs first (a model trained on it sends `title`, a `task` wrapper, …).
    const repaired = repairCreate(args);
    if ('steer' in repaired) return Promise.resolve({ text: repaired.steer, isError: true });
    const parsed = this.schemas.create.safeParse(repaired.args);
    return parsed.success ? this.createTask(parsed.data) : Promise.resolve(invalid(parsed.error));
  }

  /**
   * What task_update does and answers, from raw arguments. `signal` is the call's: aborted while
   * the TaskCompleted hook runs, the call answers `Interrupted: the task was not changed.` and
   * nothing is saved, whatever the hook says later. `caller` is the agent the host authenticated
   * (ToolCallContext's): given, the task's lease is renewed by (and fences all but) that agent,
   * whichever session it calls from; without one, by this object's session.
   */
  update(args: unknown, signal?: AbortSignal, caller?: string): Promise<Answer> {
    const parsed = this.schemas.update.safeParse(repairUpdate(args));
    return parsed.success
      ? this.updateTask(parsed.data, this.holderOf(caller), signal)
      : Promise.resolve(invalid(parsed.error));
  }

  /** What task_list does and answers, from raw arguments (none): the list after catching up with the store. */
  async list(args: unknown): Promise<Answer> {
    const parsed = this.schemas.list.safeParse(args);
    return parsed.success ? this.options.synced.read(() => this.listAnswer()) : invalid(parsed.error);
  }

  /** What task_get does and answers, from raw arguments: the task after catching up with the store. */
  async get(args: unknown): Promise<Answer> {
    const parsed = this.schemas.get.safeParse(repairTaskId(args));
    return parsed.success ? this.options.synced.read(() => this.getAnswer(parsed.data.taskId)) : invalid(parsed.error);
  }

  /**
   * What task_claim does and answers, from raw arguments. With `caller` (the agent the host
   * authenticated, ToolCallContext's) the claim is for that agent only: an `owner` other than the
   * caller is refused (an error, nothing changed), and the lease is the agent's, not this session's.
   */
  claim(args: unknown, caller?: string): Promise<Answer> {
    const parsed = this.schemas.claim.safeParse(repairTaskId(args));
    if (!parsed.success) return Promise.resolve(invalid(parsed.error));
    const claim: ClaimArgs = parsed.data;
    const holder = this.holderOf(caller);
    if (holder.agent && claim.owner !== holder.name) {
      return Promise.resolve(
        rejected(
          `owner: expected ${received(oneLine(holder.name))} (task_claim claims for the agent this call is authenticated as), received ${received(oneLine(claim.owner))}`,
        ),
      );
    }
    return this.options.synced.mutate(async () => {
      const outcome = claimTask(this.taskList, claim, holder, this.options.now());
      if (!outcome.task) {
        return {
          text: outcome.text,
          isError: false,
          structured: { success: false, ...(claim.taskId ? { taskId: claim.taskId } : {}) },
        };
      }
      const key = hereKey(holder, outcome.task.id);
      if (claim.leaseSeconds !== undefined) this.claimedHere.add(key);
      else this.claimedHere.delete(key);
      return {
        text: outcome.text,
        isError: false,
        changed: true,
        structured: { success: true, taskId: outcome.task.id, task: toItem(outcome.task) },
      };
    });
  }

  /** What task_list answers, from the list in memory. */
  listAnswer(): Answer {
    const list = this.taskList;
    const lines: string[] = [];
    const items: TaskItem[] = [];
    const now = this.options.now();
    for (const stored of list.ordered()) {
      if (isInternal(stored)) continue;
      const task = asSeen(stored, now);
      lines.push(listLine(task, list));
      items.push(toItem(task));
    }
    return { text: lines.length ? lines.join('\n') : 'No tasks found', isError: false, structured: { tasks: items } };
  }

  /** What task_get answers for `id`, from the list in memory. */
  getAnswer(id: string): Answer {
    const list = this.taskList;
    const stored = list.get(id);
    if (!stored) return { text: 'Task not found', isError: false, structured: { task: null } };
    const task = asSeen(stored, this.options.now());
    return { text: getText(task, list), isError: false, structured: { task: toItem(task) } };
  }

  /** Runs the beforeTask hook on `task`; the text of a refusal, or undefined to go on. */
  private runHook(event: TaskEvent, task: StoredTask, signal?: AbortSignal): Promise<string | undefined> {
    const synced = this.options.synced;
    const generation = synced.generation;
    return runBeforeTask(this.options.beforeTask, event, toItem(task), signal, () => generation !== synced.generation);
  }

  /** The refusal of metadata over `maxMetadataSize` characters as JSON, else undefined. */
  private metadataTooLarge(metadata: Record<string, unknown> | undefined): string | undefined {
    if (metadata === undefined) return undefined;
    const size = JSON.stringify(metadata).length;
    const max = this.options.limits.maxMetadataSize;
    return size > max ? `metadata: expected at most ${max} characters as JSON, received ${size} characters` : undefined;
  }

  /** task_create on checked arguments: the limits, the TaskCreated hook, then the new task. */
  private createTask(args: z.output<ReturnType<typeof taskSchemas>['create']>): Promise<Answer> {
    const list = this.taskList;
    return this.options.synced.mutate(async () => {
      const { maxTasks } = this.options.limits;
      if (list.nextId > MAX_TASK_ID) {
        return rejected(
          `the list has handed out every id up to ${MAX_TASK_ID}, the highest a task list can hand out; start a new list`,
        );
      }
      if (list.size >= maxTasks) {
        return rejected(
          `the list already holds ${list.size} tasks, the most it takes (maxTasks ${maxTasks}); complete and delete tasks first`,
        );
      }
      const draft = list.draft(args);
      const tooLarge = this.metadataTooLarge(draft.metadata);
      if (tooLarge) return rejected(tooLarge);
      const refusal = await this.runHook('TaskCreated', draft);
      if (refusal !== undefined) return { text: refusal, isError: true };
      const task = list.create(args);
      return {
        // The subject on one line (issue 36): no subject plants a line of its own in the answer.
        text: `Task #${task.id} created successfully: ${oneLine(task.subject)}`,
        isError: false,
        changed: true,
        structured: { task: toItem(task) },
      };
    });
  }

  /** Who holds the leases of a call by `caller`: that agent when the host authenticated one, else this session. */
  private holderOf(caller: string | undefined): LeaseHolder {
    // Only a non-empty name is an agent (the SDK binding passes no other; a direct caller might).
    return caller ? { name: caller, agent: true } : { name: this.options.session, agent: false };
  }

  /** task_update on checked arguments by `holder`: the task's lease, then a delete or a planned change. */
  private updateTask(args: UpdateArgs, holder: LeaseHolder, signal?: AbortSignal): Promise<Answer> {
    const list = this.taskList;
    return this.options.synced.mutate(async () => {
      const task = list.get(args.taskId);
      if (!task) {
        // Not an error, as in Claude Code.
        return {
          text: 'Task not found',
          isError: false,
          structured: { success: false, taskId: args.taskId, updatedFields: [] },
        };
      }
      const here = hereKey(holder, task.id);
      const lease = leaseOnUpdate(task, holder, this.claimedHere.has(here), this.options.now());
      if (lease && 'refuse' in lease) return rejected(lease.refuse);
      if (args.status === 'deleted') return this.deleteTask(task, here);
      const plan = list.plan(task, args);
      if (typeof plan === 'string') return rejected(plan);
      const tooLarge = this.metadataTooLarge(plan.next.metadata);
      if (tooLarge) return rejected(tooLarge);
      if (plan.completes) {
        const refusal = await this.runHook('TaskCompleted', plan.next, signal);
        if (refusal !== undefined) return { text: refusal, isError: true };
      }
      return this.applyUpdate(task, plan, here, lease && 'renewed' in lease ? lease.renewed : undefined);
    });
  }

  /** task_update's delete: at once, and other fields of the same call are not saved (`here`: the caller's claimedHere key). */
  private deleteTask(task: StoredTask, here: string): Answer {
    this.claimedHere.delete(here);
    this.taskList.delete(task.id);
    return {
      text: `Updated task #${task.id} deleted`,
      isError: false,
      changed: true,
      structured: { success: true, taskId: task.id, updatedFields: ['deleted'] },
    };
  }

  /**
   * Stores a checked update `plan` of `task` (its lease `renewed`, when the caller holds one; `here`
   * the caller's claimedHere key) and answers.
   */
  private applyUpdate(task: StoredTask, plan: UpdatePlan, here: string, renewed: StoredTask['claim']): Answer {
    const list = this.taskList;
    if (plan.fields.length === 0) {
      // Touching the task renews its lease (a write), though no field changed.
      if (renewed) list.replace({ ...task, claim: renewed });
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
      this.claimedHere.delete(here);
    } else if (renewed) plan.next.claim = renewed;
    const next = list.apply(plan);
    return {
      text: `Updated task #${next.id} ${plan.fields.join(', ')}`,
      isError: false,
      changed: true,
      structured: { success: true, taskId: next.id, updatedFields: plan.fields, task: toItem(next) },
    };
  }
}
