/**
 * The links between tasks (`blocks` and `blockedBy`, kept as mirrored sets) and the check that an
 * update closes no cycle: a task in a cycle would wait for itself, blocked for ever. Each
 * function costs what the call touches, never the size of the list.
 */
import { reaches } from '@raider/kit/graph';
import type { StoredTask } from './stored-task.js';

/** The links an update would add: the task as it would be, and the ids newly in its blocks and blockedBy. */
export interface PlannedLinks {
  /** The task as it would be after the update. */
  next: StoredTask;
  /** Ids newly added to its blocks (tasks that will wait for it). */
  newBlocks: string[];
  /** Ids newly added to its blockedBy (tasks it will wait for). */
  newBlockedBy: string[];
}

/**
 * The ids of `ids` not yet in `into` (added to it), or the text of the first wrong one: the task
 * itself, or an id with no task in `tasks`. `field` names the argument in that text.
 */
export function newLinks(
  tasks: ReadonlyMap<string, StoredTask>,
  task: StoredTask,
  ids: readonly string[] | undefined,
  into: Set<string>,
  field: string,
): string[] | string {
  const added: string[] = [];
  for (const id of ids ?? []) {
    if (id === task.id) {
      return `${field}: a task cannot depend on itself; expected ids of other tasks, received "${id}" on task #${task.id}`;
    }
    if (!tasks.has(id)) {
      return `${field}: expected ids of existing tasks, received "${id}" (there is no task #${id})`;
    }
    if (!into.has(id)) {
      into.add(id);
      added.push(id);
    }
  }
  return added;
}

/**
 * The text of the refusal when the planned links would close a cycle, else undefined. Walks (the
 * kit's `reaches`, iterative: a chain of 100 000 tasks does not overflow the stack) only what the
 * new links reach.
 */
export function cycleIn(tasks: ReadonlyMap<string, StoredTask>, plan: PlannedLinks): string | undefined {
  if (!plan.newBlocks.length && !plan.newBlockedBy.length) return undefined;
  const self = plan.next.id;
  const newlyWaiting = new Set(plan.newBlocks);
  // What a task waits on once the plan is applied.
  const waitsOn = (id: string): Iterable<string> => {
    if (id === self) return plan.next.blockedBy;
    const existing = tasks.get(id)?.blockedBy ?? [];
    return newlyWaiting.has(id) ? [...existing, self] : existing;
  };
  for (const id of plan.newBlockedBy) {
    if (reaches([id], self, waitsOn)) {
      return `addBlockedBy: expected ids of tasks that do not wait on #${self}, received "${id}" (#${id} already waits on #${self}: a cycle would block them both for ever)`;
    }
  }
  for (const id of plan.newBlocks) {
    if (reaches([self], id, waitsOn)) {
      return `addBlocks: expected ids of tasks #${self} does not wait on, received "${id}" (#${self} already waits on #${id}: a cycle would block them both for ever)`;
    }
  }
  return undefined;
}

/** Adds `task`'s links to the other end of each: its blockers' `blocks`, its dependants' `blockedBy`. */
export function mirrorLinks(tasks: ReadonlyMap<string, StoredTask>, task: StoredTask): void {
  for (const id of task.blocks) tasks.get(id)?.blockedBy.add(task.id);
  for (const id of task.blockedBy) tasks.get(id)?.blocks.add(task.id);
}

/** Removes from the other ends the links `previous` had and `task` (the same task, as it is now) has not. */
export function unlinkDropped(tasks: ReadonlyMap<string, StoredTask>, previous: StoredTask, task: StoredTask): void {
  for (const id of previous.blocks) if (!task.blocks.has(id)) tasks.get(id)?.blockedBy.delete(task.id);
  for (const id of previous.blockedBy) if (!task.blockedBy.has(id)) tasks.get(id)?.blocks.delete(task.id);
}
