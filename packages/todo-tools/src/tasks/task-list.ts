/**
 * The task list the task tools share: keyed storage, so create, update, get and delete cost
 * the same whatever the size of the list. `blocks` and `blockedBy` are kept as mirrored sets, so
 * a delete touches only the task's neighbours (task-links.ts). While a call runs on a store, a
 * ChangeTracker records what it wrote and how to undo it (task-change-tracker.ts).
 */
import { copyMetadata, mergeMetadata } from '../metadata.js';
import { MAX_TASK_ID, type TaskRecord, type TaskWrite } from '../store/task-store.js';
import { TASK_FIELDS } from '../task-fields.js';
import type { TaskItem, TaskStatus } from '../types.js';
import { fromRecord, type StoredTask } from './stored-task.js';
import { ChangeTracker } from './task-change-tracker.js';
import { cycleIn, mirrorLinks, newLinks, type PlannedLinks, unlinkDropped } from './task-links.js';

// A decimal id, as a store's records hold them (a link may hold anything a hand-edited file held).
const DECIMAL_ID = /^[1-9][0-9]*$/;

/** The highest id `record` uses: its own, or a decimal one its links name (up to MAX_TASK_ID). */
function highestId(record: TaskRecord): number {
  let highest = Number(record.id);
  for (const id of [...record.blocks, ...record.blockedBy]) {
    const linked = DECIMAL_ID.test(id) ? Number(id) : 0;
    if (linked > highest && linked <= MAX_TASK_ID) highest = linked;
  }
  return highest;
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
export const FIELD_ORDER = [...TASK_FIELDS, 'blocks', 'blockedBy'] as const;
/** A field task_update can report as changed. */
export type UpdatedField = (typeof FIELD_ORDER)[number];

/**
 * What an update would do, computed without touching the list: `next` is the task as it would be
 * after it (new sets and records: the stored task is untouched), `newBlocks` and `newBlockedBy`
 * the ids newly linked.
 */
export interface UpdatePlan extends PlannedLinks {
  /** Changed fields in FIELD_ORDER. */
  fields: UpdatedField[];
  /** True when the status changes to completed (the TaskCompleted hook runs first). */
  completes: boolean;
}

/** The task list: tasks by id, in id order, and the next id to hand out. */
export class TaskList {
  /** Tasks by id. Kept in id order except after records arrive from elsewhere (see `ordered`). */
  readonly byId = new Map<string, StoredTask>();
  /** The next id; never goes down, so no id is used twice. */
  nextId = 1;
  /** While a call runs: what it wrote and removed, and (on a store) how to undo it. */
  private tracking: ChangeTracker | undefined;
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
    const newBlocks = newLinks(this.byId, task, args.addBlocks, next.blocks, 'addBlocks');
    if (typeof newBlocks === 'string') return newBlocks;
    if (newBlocks.length) changed.add('blocks');
    const newBlockedBy = newLinks(this.byId, task, args.addBlockedBy, next.blockedBy, 'addBlockedBy');
    if (typeof newBlockedBy === 'string') return newBlockedBy;
    if (newBlockedBy.length) changed.add('blockedBy');
    const plan = { next, fields: FIELD_ORDER.filter((f) => changed.has(f)), newBlocks, newBlockedBy, completes };
    return cycleIn(this.byId, plan) ?? plan;
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
      this.tracking.markRemoved(id);
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
    this.tracking = new ChangeTracker(undoable, this.nextId);
  }

  /** The ids put and removed since `track()`. */
  trackedIds(): { put: string[]; removed: string[] } {
    return this.tracking?.ids() ?? { put: [], removed: [] };
  }

  /** Remembers how the tasks `ids` are before a tracked change touches them (once each). */
  private remember(ids: Iterable<string>): void {
    this.tracking?.remember(ids, this.byId);
  }

  /** Undoes every change since `track()` (the store refused it); stops recording. */
  rollback(): void {
    const tracking = this.tracking;
    this.tracking = undefined;
    if (!tracking?.undoable) return;
    for (const [id, task] of tracking.undo()) {
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
    return (this.tracking ?? new ChangeTracker(false, this.nextId)).write(this.byId, this.nextId);
  }

  /**
   * Takes over records written elsewhere (another holder of the store): each replaces the task of
   * its id, each removed id goes (the links its neighbours' records hold to it stay until those
   * records change), and links are mirrored on the neighbours in memory. The next id stays above
   * `highWaterMark` and every id seen, a linked one included.
   */
  merge(put: readonly TaskRecord[], removed: readonly string[], highWaterMark: number): void {
    // A removed task goes, but not from its neighbours' links: the writer that removed it wrote
    // them too when it unlinked them (they are in `put`); a record removed by hand or by another
    // process leaves them naming it, and a blocker whose record is missing stays a blocker.
    for (const id of removed) {
      this.byId.delete(id);
      this.leased.delete(id);
    }
    for (const record of put) {
      const task = fromRecord(record);
      const previous = this.byId.get(task.id);
      if (!previous && this.byId.size > 0 && Number(task.id) < this.nextId - 1) this.inOrder = false;
      this.byId.set(task.id, task);
      this.noteClaim(task);
      if (previous) unlinkDropped(this.byId, previous, task);
      mirrorLinks(this.byId, task);
      this.nextId = Math.max(this.nextId, highestId(record) + 1);
    }
    this.nextId = Math.max(this.nextId, highWaterMark + 1);
  }

  /**
   * Replaces the list with `items` (the shape `onUpdate` hands out). Links are mirrored and links
   * to tasks not in the list dropped, so the invariants hold whatever was saved. The next id
   * follows the highest id of the list, or `nextId` when that is higher.
   */
  restore(items: readonly TaskItem[], nextId?: number): void {
    // A journal's list is whole: a link to a task not in it is a leftover, not a missing record.
    const listed = new Set(items.map((item) => item.id));
    const inList = (id: string) => listed.has(id);
    const records = items.map((item): TaskRecord => {
      const record: TaskRecord = {
        id: item.id,
        subject: item.content,
        description: item.description,
        status: item.status,
        blocks: item.blocks.filter(inList),
        blockedBy: item.blockedBy.filter(inList),
      };
      if (item.activeForm !== undefined && item.activeForm !== item.content) record.activeForm = item.activeForm;
      if (item.owner !== undefined) record.owner = item.owner;
      if (item.metadata !== undefined) record.metadata = item.metadata;
      return record;
    });
    this.load(records, (nextId ?? 1) - 1);
  }

  /**
   * Replaces the list with a store's `records`. Links are mirrored; a link to a task whose record
   * is missing (deleted by hand or by another process) is kept as the record has it, as Claude
   * Code's reader keeps it: that blocker is not completed, so task_list and task_get show it. The
   * next id is above the highest id, above every decimal id a link names (so no new task takes
   * the place of a missing blocker) and above `highWaterMark`.
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
      for (const id of record.blocks) if (id !== record.id) task.blocks.add(id);
      for (const id of record.blockedBy) if (id !== record.id) task.blockedBy.add(id);
    }
    for (const task of this.byId.values()) mirrorLinks(this.byId, task);
    const highest = tasks.reduce((max, record) => Math.max(max, highestId(record)), 0);
    // A stored high-water mark keeps ids unused after the highest tasks were deleted.
    this.nextId = Math.max(highest, highWaterMark) + 1;
  }
}
