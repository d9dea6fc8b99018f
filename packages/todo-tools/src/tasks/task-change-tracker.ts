/**
 * Change tracking and undo for the task list: while one call runs, which tasks it put and
 * removed (what a store must write, and what the observers are told), and, when a store may still
 * refuse the change, each touched task as it was before, so the call can be undone in memory.
 */
import type { TaskRecord, TaskWrite } from '../store/task-store.js';
import { copyTask, type StoredTask, toRecord } from './stored-task.js';

/** What one tracked call changed in a task list, and how to undo it. */
export class ChangeTracker {
  /** Ids of the tasks the call put (created or changed), in the order it first touched them. */
  readonly put = new Set<string>();
  /** Ids of the tasks the call removed. */
  readonly removed = new Set<string>();
  /** The list's next id when tracking began (an undo puts it back). */
  readonly nextId: number;
  /** Each touched task as it was before the call (undefined: it did not exist), when undoable. */
  private readonly before: Map<string, StoredTask | undefined> | undefined;

  /**
   * Starts tracking a call on a list whose next id is `nextId`. `undoable` also keeps each touched
   * task as it was (needed only when a store may refuse the change: it costs a copy per task).
   */
  constructor(undoable: boolean, nextId: number) {
    this.nextId = nextId;
    this.before = undoable ? new Map() : undefined;
  }

  /** True when the call can be undone (see the constructor). */
  get undoable(): boolean {
    return this.before !== undefined;
  }

  /**
   * Keeps how the tasks `ids` are in `tasks` before the call changes them: the first time each is
   * touched only, so an undo goes back to the state before the call, not before its last step.
   */
  remember(ids: Iterable<string>, tasks: ReadonlyMap<string, StoredTask>): void {
    const before = this.before;
    if (!before) return;
    for (const id of ids) {
      if (before.has(id)) continue;
      const task = tasks.get(id);
      before.set(id, task && copyTask(task));
    }
  }

  /** Notes that the call removed task `id` (it is no longer one it put). */
  markRemoved(id: string): void {
    this.put.delete(id);
    this.removed.add(id);
  }

  /** The ids put and removed so far. */
  ids(): { put: string[]; removed: string[] } {
    return { put: [...this.put], removed: [...this.removed] };
  }

  /** What the call wrote, as a store writes it: the tasks put as they are now in `tasks`, the ids removed. */
  write(tasks: ReadonlyMap<string, StoredTask>, nextId: number): TaskWrite {
    const put: TaskRecord[] = [];
    for (const id of this.put) {
      const task = tasks.get(id);
      if (task) put.push(toRecord(task));
    }
    return { put, removed: [...this.removed], highWaterMark: nextId - 1 };
  }

  /** Each touched task as it was before the call (undefined: it did not exist then); nothing when not undoable. */
  undo(): Iterable<[string, StoredTask | undefined]> {
    return this.before ?? [];
  }
}
