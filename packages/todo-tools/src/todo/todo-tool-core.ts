/**
 * TodoToolCore: rpiv-todo's one-tool `todo` family (@juicesharp/rpiv-todo), with no MCP SDK:
 * its direct API (`call`, `callAsync`, …) and its definition as a tool. Each entry's `TodoTool`
 * (`.` for SDK v1, `./v2` for SDK v2) is this class plus `register` and `server` for its SDK.
 * One object holds one list; every result carries the whole state (`details`) so a transcript
 * can rebuild it with `replayTodo`.
 */

import { advertised, advertisedOutput } from '@raider/kit/schemas';
import { z } from 'zod';
import { storeFailure } from '../answer.js';
import { InvalidListError } from '../errors.js';
import { DEFAULT_LIMITS, type TaskListLimits } from '../limits.js';
import { tooDeeplyNested } from '../metadata.js';
import { serial } from '../serial.js';
import type { ListStore } from '../store/list-store.js';
import { runStored } from '../store/stored-call.js';
import type { ToolCallResult, ToolDefinition } from '../tool-definition.js';
import { jsonRecord } from '../tool-input.js';
import { presentationOf, presented, type ToolPresentation } from '../tool-presentation.js';
import type { TodoSnapshot } from '../types.js';
import { guidanceText, type TodoGuidance } from './todo-guidance.js';
import { readParams, TODO_ACTIONS, TODO_STATUSES } from './todo-params.js';
import { readSnapshot } from './todo-replay.js';
import { type Outcome, TodoState } from './todo-state.js';
import { errorText } from './todo-text.js';
import type { TodoDetails, TodoResult } from './todo-types.js';

/** Options of {@link TodoTool}. */
export interface TodoToolOptions {
  /** Called with the new snapshot after every call that changed the list (not for reads, no-ops or rejections). */
  onUpdate?: (snapshot: TodoSnapshot) => void;
  /** Called after every change, with nothing (no snapshot is copied for it: it costs nothing at any size). */
  onChange?: () => void;
  /** The state to start from (say, `replayTodo` of a resumed transcript). Must validate. */
  snapshot?: TodoSnapshot;
  /** Size limits; any left out take the defaults of DEFAULT_LIMITS. */
  limits?: Partial<TaskListLimits>;
  /**
   * Where the list lives. With a store, `callAsync` and the MCP tool load the stored snapshot,
   * apply the call and write the new one in one transaction, so several objects (and processes)
   * share one list. `call` stays in memory.
   */
  store?: ListStore<TodoSnapshot>;
  /**
   * Replaces the prompt snippet and/or the guidelines of `server`'s instructions (rpiv-todo's
   * `guidance` config); a part left out keeps TODO_GUIDANCE's.
   */
  guidance?: TodoGuidance;
  /**
   * Results carry the snapshot as `structuredContent` (and the tool declares its output schema).
   * Default false: a client that shows its model the structured content (Claude Code does) would
   * otherwise hand the model the whole list on every call, which rpiv-todo keeps out of the
   * model's context; the snapshot stays in `call()`'s `details` and in the store.
   */
  structuredOutput?: boolean;
  /** The tool carries `_meta["anthropic/alwaysLoad"]: true` (Claude Code does not defer it behind ToolSearch). */
  alwaysLoad?: boolean;
}

// Ids are advertised as integers (as rpiv-todo's schema names them); `call` also reads numeric strings.
const integerId = () => z.number().int();
const integerIds = () => z.array(integerId());

/**
 * The parameters as clients see them in tools/list. Only advertised: the SDK lets any object
 * through, and `call` reads the parameters itself (todo-params.ts), so MCP and `call()` answer
 * every input alike, in rpiv-todo's envelope.
 */
const INPUT = z.strictObject({
  action: z.enum(TODO_ACTIONS as [string, ...string[]]).describe('What to do.'),
  subject: z.string().optional().describe('create (required), update: short imperative title.'),
  blockedBy: integerIds().optional().describe('create: ids this task waits on.'),
  description: z.string().optional().describe('create, update: long-form detail.'),
  activeForm: z.string().optional().describe('create, update: present-continuous label shown while in_progress.'),
  owner: z.string().optional().describe('create, update: agent or person assigned.'),
  metadata: jsonRecord().optional().describe('create, update: key/value data; on update merged, null deletes a key.'),
  addBlockedBy: integerIds().optional().describe('update: ids to add to blockedBy.'),
  removeBlockedBy: integerIds().optional().describe('update: ids to remove from blockedBy.'),
  id: integerId().optional().describe('update, get, delete: the task id (an integer).'),
  status: z
    .enum(TODO_STATUSES as [string, ...string[]])
    .optional()
    .describe('update: new status; list: only tasks with this status.'),
  includeDeleted: z.boolean().optional().describe('list: show deleted tasks too.'),
});

const TASK = z.object({
  id: z.number(),
  subject: z.string(),
  description: z.string().optional(),
  activeForm: z.string().optional(),
  status: z.enum(TODO_STATUSES as [string, ...string[]]),
  blockedBy: z.array(z.number()).optional(),
  owner: z.string().optional(),
  metadata: jsonRecord().optional(),
});

/** The MCP output schema: rpiv-todo's `details`. */
const OUTPUT = {
  action: z.string(),
  params: jsonRecord(),
  tasks: z.array(TASK),
  nextId: z.number(),
  error: z.string().optional(),
};

/** The output schema as registered, built once for every object (see advertisedOutput). */
const ADVERTISED_OUTPUT = advertisedOutput(OUTPUT);

/**
 * rpiv-todo's `todo` tool without an SDK (see each entry's `TodoTool`): actions create, update,
 * list, get, delete and clear on one list, with tombstones, dependency checks before any change,
 * and a result that carries the whole state. Create, update, get and delete do not grow with the
 * list (the result's snapshot is an array of shared, frozen task objects); list is linear.
 */
export class TodoToolCore {
  /** The limits in force. */
  readonly limits: Readonly<TaskListLimits>;
  private readonly state = new TodoState();
  private readonly onUpdate: TodoToolOptions['onUpdate'];
  private readonly onChange: TodoToolOptions['onChange'];
  private readonly store: ListStore<TodoSnapshot> | undefined;
  /** The instructions `server` carries: TODO_GUIDANCE, or the guidance given. */
  readonly instructions: string;
  /** Runs stored calls one after another, so two of them never interleave in this object. */
  private readonly queue = serial();
  private builtDefinitions: readonly ToolDefinition[] | undefined;
  private readonly presentation: ToolPresentation;

  /** @throws InvalidListError (a TypeError) when `options.snapshot` does not validate, or `options.guidance` is not text. */
  constructor(options: TodoToolOptions = {}) {
    this.instructions = guidanceText(options.guidance);
    this.onUpdate = options.onUpdate;
    this.onChange = options.onChange;
    this.store = options.store;
    this.limits = Object.freeze({ ...DEFAULT_LIMITS, ...options.limits });
    this.presentation = presentationOf(options);
    if (options.snapshot) this.restore(options.snapshot);
  }

  /**
   * Carries out one call and answers in rpiv-todo's envelope: `content` with the text (`Error:
   * <message>` for a rejection) and `details` with the action, the parameters and the complete
   * state after the call (`error` holds the bare message of a rejection). A rejected call changes
   * nothing. Never throws for bad parameters.
   */
  call(params: unknown): TodoResult {
    const { result, changed } = this.respond(params);
    if (changed) this.changed();
    return result;
  }

  /**
   * `call`, through the store when there is one: the stored snapshot is loaded, the call applied
   * and the new snapshot written in one transaction; the result comes once it is saved. A store
   * that cannot be read or written gives an error result naming what is wrong, and no change.
   */
  callAsync(params: unknown): Promise<TodoResult> {
    const store = this.store;
    if (!store) return Promise.resolve(this.call(params));
    return this.queue(async () => {
      let outcome: { result: TodoResult; changed: boolean };
      const memory = { load: (saved: TodoSnapshot | undefined) => this.load(saved), save: () => this.plainSnapshot() };
      try {
        outcome = await runStored(
          store,
          memory,
          () => this.respond(params),
          (out) => out.changed,
        );
      } catch (error) {
        const message = storeFailure(undefined, error);
        const details: TodoDetails = this.state.snapshotInto({ action: actionOf(params), params: paramsOf(params) });
        details.error = message;
        return { content: [{ type: 'text', text: errorText(message) }], details } as TodoResult;
      }
      if (outcome.changed) this.changed();
      return outcome.result;
    });
  }

  /** Tells the observers of a change: onUpdate the snapshot (when set), onChange nothing. */
  private changed(): void {
    if (this.onUpdate) this.onUpdate(this.state.snapshot());
    this.onChange?.();
  }

  /** Takes over a stored snapshot (an empty list when there is none). */
  private load(snapshot: TodoSnapshot | undefined): void {
    const tooDeep = tooDeeplyNested(snapshot?.tasks, this.limits.maxMetadataDepth);
    if (tooDeep) throw new InvalidListError(`the stored list: ${tooDeep}`);
    const valid = readSnapshot(snapshot ?? { tasks: [], nextId: 1 });
    if (typeof valid === 'string') throw new InvalidListError(`the stored list is not a valid snapshot: ${valid}`);
    this.state.load(valid);
  }

  /** The snapshot as plain data, for a store to write. */
  private plainSnapshot(): TodoSnapshot {
    const { tasks, nextId } = this.state.snapshot();
    return { tasks: [...tasks], nextId };
  }

  private respond(params: unknown): { result: TodoResult; changed: boolean } {
    const { action, outcome } = this.run(params);
    const details: TodoDetails = this.state.snapshotInto({ action, params: paramsOf(params) });
    let text: string;
    let changed = false;
    if ('error' in outcome) {
      details.error = outcome.error;
      text = errorText(outcome.error);
    } else {
      text = outcome.text;
      changed = outcome.changed;
    }
    return { result: { content: [{ type: 'text', text }], details }, changed };
  }

  private run(params: unknown): { action: string; outcome: Outcome } {
    const read = readParams(params, this.limits);
    if ('error' in read) return { action: read.action, outcome: { error: read.error } };
    if (read.action === 'create' && this.state.size >= this.limits.maxTasks) {
      const error = `the list already holds ${this.state.size} tasks, the most it takes (maxTasks ${this.limits.maxTasks}); clear it or delete tasks first`;
      return { action: read.action, outcome: { error } };
    }
    return { action: read.action, outcome: this.state.apply(read, this.limits.maxMetadataSize) };
  }

  /** The current state: every task (tombstones included, frozen) in id order, and the next id. */
  snapshot(): TodoSnapshot {
    return this.state.snapshot();
  }

  /**
   * Replaces the state with `snapshot` (a `details` object will do). Calls no hook.
   * @throws InvalidListError (a TypeError) naming what is wrong when it does not validate; the state is then unchanged.
   */
  restore(snapshot: TodoSnapshot): void {
    const tooDeep = tooDeeplyNested(snapshot?.tasks, this.limits.maxMetadataDepth);
    if (tooDeep) throw new InvalidListError(`TodoTool.restore: ${tooDeep}`);
    const valid = readSnapshot(snapshot);
    if (typeof valid === 'string') throw new InvalidListError(`TodoTool.restore: invalid snapshot: ${valid}`);
    this.state.load(valid);
  }

  /**
   * The tool `todo` on this object's list, as an SDK-neutral definition (what `register` mounts).
   * Built once: every call returns the same frozen array.
   */
  definitions(): readonly ToolDefinition[] {
    this.builtDefinitions ??= Object.freeze([
      presented(
        {
          name: 'todo',
          title: 'Todo list',
          description:
            'Plan and track multi-step work: action create, update, list, get, delete (tombstone) or clear. Ids are integers; keep one task in_progress.',
          inputSchema: advertised(INPUT),
          outputSchema: ADVERTISED_OUTPUT,
          annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
          handler: async (args): Promise<ToolCallResult> => {
            const result = await this.callAsync(args);
            // The model reads content[0].text, the summary (as rpiv-todo keeps `details` out of its
            // model's context); the snapshot goes along only when structured output is on.
            const out: ToolCallResult = this.presentation.structuredOutput
              ? { content: result.content, structuredContent: result.details as unknown as Record<string, unknown> }
              : { content: result.content };
            if (result.details.error !== undefined) out.isError = true;
            return out;
          },
        },
        this.presentation,
      ),
    ]);
    return this.builtDefinitions;
  }
}

/** The action a call asked for, as sent. */
function actionOf(params: unknown): string {
  const action = (params as { action?: unknown } | null)?.action;
  return typeof action === 'string' ? action : '';
}

/** The call's parameters without `action`, as `details.params` records them (a shallow copy). */
function paramsOf(params: unknown): Record<string, unknown> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return {};
  const { action: _action, ...rest } = params as Record<string, unknown>;
  return rest;
}
