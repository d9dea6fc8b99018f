/**
 * The task list the task tools share: keyed storage, so create, update, get and delete cost
 * the same whatever the size of the list. `blocks` and `blockedBy` are kept as mirrored sets, so
 * a delete touches only the task's neighbours.
 */
import { copyMetadata, mergeMetadata } from '../metadata.js';
import type { TaskRecord, TaskWrite } from '../store/task-store.js';
import type { TaskItem, TaskStatus } from '../types.js';

/** A task as the list keeps it in memory: a store's record, its links as mirrored sets. */
export interface StoredTask extends Omit<TaskRecord, 'blocks' | 'blockedBy'> {
  blocks: Set<string>;
  blockedBy: Set<string>;
}

/** The fields of task_update, validated by its schema. */
export interface UpdateArgs {
  taskId: string;
  subject?: string;
  description?: string;
  activeForm?: string;
  status?: TaskStatus | 'deleted';
  addBlocks?: string[];
  addBlockedBy?: string[];
  owner?: string;
  metadata?: Record<string, unknown>;
}

/** The fields an update changes, in Claude Code's order for "Updated task #N ...". */
export const FIELD_ORDER = [
  'subject',
  'description',
  'activeForm',
  'owner',
  'metadata',
  'status',
  'blocks',
  'blockedBy',
] as const;
/** A field task_update can report as changed. */
export type UpdatedField = (typeof FIELD_ORDER)[number];

/** What an update would do, computed without touching the list. */
export interface UpdatePlan {
  /** The task as it would be after the update (new sets and records: the stored task is untouched). */
  next: StoredTask;
  /** Changed fields in FIELD_ORDER. */
  fields: UpdatedField[];
  /** Ids newly added to blocks / blockedBy. */
  newBlocks: string[];
  newBlockedBy: string[];
  /** True when the status changes to completed (the TaskCompleted hook runs first). */
  completes: boolean;
}

/** The task in the shape `onUpdate` receives: a copy that shares nothing with the store. */
export function toItem(task: StoredTask): TaskItem {
  const item: TaskItem = {
    id: task.id,
    content: task.subject,
    status: task.status,
    activeForm: task.activeForm ?? task.subject,
    description: task.description,
    blocks: [...task.blocks],
    blockedBy: [...task.blockedBy],
  };
  if (task.owner !== undefined) item.owner = task.owner;
  if (task.metadata !== undefined) item.metadata = structuredClone(task.metadata);
  return item;
}

/** The task as a store keeps it: Claude Code's record, in its field order. */
export function toRecord(task: StoredTask): TaskRecord {
  const record: TaskRecord = { id: task.id, subject: task.subject, description: task.description } as TaskRecord;
  if (task.activeForm !== undefined) record.activeForm = task.activeForm;
  if (task.owner !== undefined) record.owner = task.owner;
  record.status = task.status;
  record.blocks = [...task.blocks];
  record.blockedBy = [...task.blockedBy];
  if (task.metadata !== undefined) record.metadata = structuredClone(task.metadata);
  if (task.claim !== undefined) record.claim = { ...task.claim };
  return record;
}

/** A stored record as the list keeps it (links as sets; a link to itself dropped). */
function fromRecord(record: TaskRecord): StoredTask {
  const task: StoredTask = {
    id: record.id,
    subject: record.subject,
    description: record.description,
    status: record.status,
    blocks: new Set(record.blocks.filter((id) => id !== record.id)),
    blockedBy: new Set(record.blockedBy.filter((id) => id !== record.id)),
  };
  if (record.activeForm !== undefined) task.activeForm = record.activeForm;
  if (record.owner !== undefined) task.owner = record.owner;
  if (record.metadata !== undefined) task.metadata = structuredClone(record.metadata);
  if (record.claim !== undefined) task.claim = { ...record.claim };
  return task;
}

/** The task list: tasks by id, in id order, and the next id to hand out. */
export class TaskList {
  /** Tasks by id. Kept in id order except after records arrive from elsewhere (see `ordered`). */
  readonly byId = new Map<string, StoredTask>();
  /** The next id; never goes down, so no id is used twice. */
  nextId = 1;
  /**
   * While a store call runs: the ids it wrote and removed (what the store must write), and each
   * touched task as it was before (so a call the store refused can be undone).
   */
  private tracking:
    | {
        put: Set<string>;
        removed: Set<string>;
        before: Map<string, StoredTask | undefined> | undefined;
        nextId: number;
      }
    | undefined;
  /** False once a record arrived out of id order (another process created it); `ordered` sorts then. */
  private inOrder = true;
  /** Ids of the tasks whose claim has a lease (so expiry looks at them alone, not the list). */
  readonly leased = new Set<string>();

  /** Keeps `leased` in step with a task just stored. */
  private noteClaim(task: StoredTask): void {
    if (task.claim) this.leased.add(task.id);
    else this.leased.delete(task.id);
  }

  /** Stores `task` in place of the task of its id (a claim, a lease renewed or lapsed), recorded for a store. */
  replace(task: StoredTask): void {
    this.remember([task.id]);
    this.byId.set(task.id, task);
    this.noteClaim(task);
    this.tracking?.put.add(task.id);
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): StoredTask | undefined {
    return this.byId.get(id);
  }

  /** Stores a new pending task under the next id. */
  create(fields: { subject: string; description: string; activeForm?: string; metadata?: Record<string, unknown> }) {
    const task = this.draft(fields);
    this.remember([task.id]);
    this.byId.set(task.id, task);
    this.nextId += 1;
    this.tracking?.put.add(task.id);
    return task;
  }

  /** The task `create` would store, without storing it (what TaskCreated is asked about). */
  draft(fields: {
    subject: string;
    description: string;
    activeForm?: string;
    metadata?: Record<string, unknown>;
  }): StoredTask {
    const task: StoredTask = {
      id: String(this.nextId),
      subject: fields.subject,
      description: fields.description,
      status: 'pending',
      blocks: new Set(),
      blockedBy: new Set(),
    };
    if (fields.activeForm !== undefined) task.activeForm = fields.activeForm;
    // Stored as given (null values and an empty record included), as Claude Code's TaskCreate does.
    if (fields.metadata !== undefined) task.metadata = copyMetadata(fields.metadata);
    return task;
  }

  /**
   * What `args` would change on `task`, or the text of the first thing wrong with it. Costs
   * the size of the call, not of the list.
   */
  plan(task: StoredTask, args: UpdateArgs): UpdatePlan | string {
    const next: StoredTask = { ...task, blocks: new Set(task.blocks), blockedBy: new Set(task.blockedBy) };
    const changed = new Set<UpdatedField>();
    if (args.subject !== undefined && args.subject !== task.subject) {
      next.subject = args.subject;
      changed.add('subject');
    }
    if (args.description !== undefined && args.description !== task.description) {
      next.description = args.description;
      changed.add('description');
    }
    if (args.activeForm !== undefined && args.activeForm !== task.activeForm) {
      next.activeForm = args.activeForm;
      changed.add('activeForm');
    }
    if (args.owner !== undefined && args.owner !== (task.owner ?? '')) {
      if (args.owner === '') delete next.owner;
      else next.owner = args.owner;
      changed.add('owner');
    }
    if (args.metadata !== undefined) {
      // Claude Code counts metadata as updated whenever it is given.
      const merged = mergeMetadata(task.metadata, args.metadata);
      if (merged) next.metadata = merged;
      else delete next.metadata;
      changed.add('metadata');
    }
    let completes = false;
    if (args.status !== undefined && args.status !== 'deleted' && args.status !== task.status) {
      next.status = args.status;
      completes = args.status === 'completed';
      changed.add('status');
    }
    const newBlocks = this.newLinks(task, args.addBlocks, next.blocks, 'addBlocks');
    if (typeof newBlocks === 'string') return newBlocks;
    if (newBlocks.length) changed.add('blocks');
    const newBlockedBy = this.newLinks(task, args.addBlockedBy, next.blockedBy, 'addBlockedBy');
    if (typeof newBlockedBy === 'string') return newBlockedBy;
    if (newBlockedBy.length) changed.add('blockedBy');
    const plan = { next, fields: FIELD_ORDER.filter((f) => changed.has(f)), newBlocks, newBlockedBy, completes };
    return this.cycleIn(plan) ?? plan;
  }

  /**
   * The text of the refusal when the planned links would close a cycle (every task in a cycle
   * would stay blocked for ever), else undefined. Walks, iteratively, only what the new links reach.
   */
  private cycleIn(plan: UpdatePlan): string | undefined {
    if (!plan.newBlocks.length && !plan.newBlockedBy.length) return undefined;
    const self = plan.next.id;
    const newlyWaiting = new Set(plan.newBlocks);
    // What a task waits on once the plan is applied.
    const waitsOn = (id: string): Iterable<string> => {
      if (id === self) return plan.next.blockedBy;
      const existing = this.byId.get(id)?.blockedBy ?? [];
      return newlyWaiting.has(id) ? [...existing, self] : existing;
    };
    const reaches = (from: string, target: string): boolean => {
      const seen = new Set<string>();
      const stack = [from];
      while (stack.length) {
        const id = stack.pop() as string;
        if (id === target) return true;
        if (seen.has(id)) continue;
        seen.add(id);
        for (const next of waitsOn(id)) if (!seen.has(next)) stack.push(next);
      }
      return false;
    };
    for (const id of plan.newBlockedBy) {
      if (reaches(id, self)) {
        return `addBlockedBy: expected ids of tasks that do not wait on #${self}, received "${id}" (#${id} already waits on #${self}: a cycle would block them both for ever)`;
      }
    }
    for (const id of plan.newBlocks) {
      if (reaches(self, id)) {
        return `addBlocks: expected ids of tasks #${self} does not wait on, received "${id}" (#${self} already waits on #${id}: a cycle would block them both for ever)`;
      }
    }
    return undefined;
  }

  /** Ids of `ids` not yet in `into` (added to it), or the text of the first wrong one. */
  private newLinks(task: StoredTask, ids: string[] | undefined, into: Set<string>, field: string): string[] | string {
    const added: string[] = [];
    for (const id of ids ?? []) {
      if (id === task.id) {
        return `${field}: a task cannot depend on itself; expected ids of other tasks, received "${id}" on task #${task.id}`;
      }
      if (!this.byId.has(id)) {
        return `${field}: expected ids of existing tasks, received "${id}" (there is no task #${id})`;
      }
      if (!into.has(id)) {
        into.add(id);
        added.push(id);
      }
    }
    return added;
  }

  /** Stores a planned update, mirroring new links on the other tasks. */
  apply(plan: UpdatePlan): StoredTask {
    const { next } = plan;
    this.remember([next.id, ...plan.newBlocks, ...plan.newBlockedBy]);
    this.byId.set(next.id, next);
    this.noteClaim(next);
    for (const id of plan.newBlocks) this.byId.get(id)?.blockedBy.add(next.id);
    for (const id of plan.newBlockedBy) this.byId.get(id)?.blocks.add(next.id);
    if (this.tracking) for (const id of [next.id, ...plan.newBlocks, ...plan.newBlockedBy]) this.tracking.put.add(id);
    return next;
  }

  /** Removes a task and its id from its neighbours' blocks and blockedBy. */
  delete(id: string): void {
    const task = this.byId.get(id);
    if (!task) return;
    this.remember([id, ...task.blocks, ...task.blockedBy]);
    for (const other of task.blocks) this.byId.get(other)?.blockedBy.delete(id);
    for (const other of task.blockedBy) this.byId.get(other)?.blocks.delete(id);
    this.byId.delete(id);
    this.leased.delete(id);
    if (this.tracking) {
      for (const other of [...task.blocks, ...task.blockedBy]) if (this.byId.has(other)) this.tracking.put.add(other);
      this.tracking.put.delete(id);
      this.tracking.removed.add(id);
    }
  }

  /** Empties the list; ids go on counting. */
  clear(): void {
    this.byId.clear();
    this.leased.clear();
    this.inOrder = true;
  }

  /** The tasks in id order. */
  ordered(): Iterable<StoredTask> {
    if (!this.inOrder) {
      const sorted = [...this.byId.values()].sort((a, b) => Number(a.id) - Number(b.id));
      this.byId.clear();
      for (const task of sorted) this.byId.set(task.id, task);
      this.inOrder = true;
    }
    return this.byId.values();
  }

  /**
   * Starts recording what the list writes (which ids), for a store and the observers; `undoable`
   * also keeps each touched task as it was, so `rollback` can undo (needed only when a store may
   * refuse the change).
   */
  track(undoable: boolean): void {
    this.tracking = {
      put: new Set(),
      removed: new Set(),
      before: undoable ? new Map() : undefined,
      nextId: this.nextId,
    };
  }

  /** The ids put and removed since `track()`. */
  trackedIds(): { put: string[]; removed: string[] } {
    return { put: [...(this.tracking?.put ?? [])], removed: [...(this.tracking?.removed ?? [])] };
  }

  /** Remembers how the tasks `ids` are before a tracked change touches them (once each). */
  private remember(ids: Iterable<string>): void {
    const before = this.tracking?.before;
    if (!before) return;
    for (const id of ids) {
      if (before.has(id)) continue;
      const task = this.byId.get(id);
      before.set(
        id,
        task && {
          ...task,
          blocks: new Set(task.blocks),
          blockedBy: new Set(task.blockedBy),
          metadata: task.metadata && structuredClone(task.metadata),
        },
      );
      if (task && task.metadata === undefined) delete before.get(id)?.metadata;
    }
  }

  /** Undoes every change since `track()` (the store refused it); stops recording. */
  rollback(): void {
    const tracking = this.tracking;
    this.tracking = undefined;
    if (!tracking?.before) return;
    for (const [id, task] of tracking.before) {
      if (task === undefined) {
        this.byId.delete(id);
        this.leased.delete(id);
      } else {
        if (!this.byId.has(id)) this.inOrder = false;
        this.byId.set(id, task);
        this.noteClaim(task);
      }
    }
    this.nextId = tracking.nextId;
  }

  /** The change is saved: stops recording (it can no longer be undone). */
  settle(): void {
    this.tracking = undefined;
  }

  /** What the list wrote since `track()`, as a store writes it (recording goes on until `settle` or `rollback`). */
  trackedWrite(): TaskWrite {
    const tracking = this.tracking ?? { put: new Set<string>(), removed: new Set<string>() };
    const put: TaskRecord[] = [];
    for (const id of tracking.put) {
      const task = this.byId.get(id);
      if (task) put.push(toRecord(task));
    }
    return { put, removed: [...tracking.removed], highWaterMark: this.nextId - 1 };
  }

  /**
   * Takes over records written elsewhere (another holder of the store): each replaces the task of
   * its id, each removed id goes, and links are mirrored on the neighbours in memory. The next id
   * stays above `highWaterMark` and every id seen.
   */
  merge(put: readonly TaskRecord[], removed: readonly string[], highWaterMark: number): void {
    for (const id of removed) this.delete(id);
    for (const record of put) {
      const task = fromRecord(record);
      const previous = this.byId.get(task.id);
      if (!previous && this.byId.size > 0 && Number(task.id) < this.nextId - 1) this.inOrder = false;
      this.byId.set(task.id, task);
      this.noteClaim(task);
      for (const id of previous?.blocks ?? []) if (!task.blocks.has(id)) this.byId.get(id)?.blockedBy.delete(task.id);
      for (const id of previous?.blockedBy ?? [])
        if (!task.blockedBy.has(id)) this.byId.get(id)?.blocks.delete(task.id);
      for (const id of task.blocks) this.byId.get(id)?.blockedBy.add(task.id);
      for (const id of task.blockedBy) this.byId.get(id)?.blocks.add(task.id);
      this.nextId = Math.max(this.nextId, Number(task.id) + 1);
    }
    this.nextId = Math.max(this.nextId, highWaterMark + 1);
  }

  /**
   * Replaces the list with `items` (the shape `onUpdate` hands out). Links are mirrored and links
   * to tasks not in the list dropped, so the invariants hold whatever was saved. The next id
   * follows the highest id of the list, or `nextId` when that is higher.
   */
  restore(items: readonly TaskItem[], nextId?: number): void {
    const records = items.map((item): TaskRecord => {
      const record: TaskRecord = {
        id: item.id,
        subject: item.content,
        description: item.description,
        status: item.status,
        blocks: item.blocks,
        blockedBy: item.blockedBy,
      };
      if (item.activeForm !== undefined && item.activeForm !== item.content) record.activeForm = item.activeForm;
      if (item.owner !== undefined) record.owner = item.owner;
      if (item.metadata !== undefined) record.metadata = item.metadata;
      return record;
    });
    this.load(records, (nextId ?? 1) - 1);
  }

  /**
   * Replaces the list with a store's `records`. Links are mirrored and links to tasks not in the
   * list dropped. The next id is above the highest id and above `highWaterMark`.
   */
  load(records: readonly TaskRecord[], highWaterMark: number): void {
    const tasks = [...records].sort((a, b) => Number(a.id) - Number(b.id));
    this.byId.clear();
    this.leased.clear();
    this.inOrder = true;
    for (const record of tasks) {
      const task = fromRecord(record);
      task.blocks.clear();
      task.blockedBy.clear();
      this.byId.set(task.id, task);
      this.noteClaim(task);
    }
    // Each task keeps its own lists in their order; then any missing mirror is added.
    for (const record of tasks) {
      const task = this.byId.get(record.id) as StoredTask;
      for (const id of record.blocks) if (this.byId.has(id) && id !== record.id) task.blocks.add(id);
      for (const id of record.blockedBy) if (this.byId.has(id) && id !== record.id) task.blockedBy.add(id);
    }
    for (const task of this.byId.values()) {
      for (const id of task.blocks) this.byId.get(id)?.blockedBy.add(task.id);
      for (const id of task.blockedBy) this.byId.get(id)?.blocks.add(task.id);
    }
    const highest = tasks.reduce((max, t) => Math.max(max, Number(t.id)), 0);
    // A stored high-water mark keeps ids unused after the highest tasks were deleted.
    this.nextId = Math.max(highest, highWaterMark) + 1;
  }
}
