/**
 * Snapshots of the `todo` family: validation, and `replayTodo`, which rebuilds the state from a
 * transcript's results. Only a snapshot that validates is ever used; anything else is skipped,
 * never half-applied.
 */

import { hasCycle } from '@raider/kit/graph';
import type { TodoSnapshot, TodoTask, TodoTaskStatus } from '../types.js';
import { isRecord, TODO_STATUSES } from './todo-params.js';

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;
const optionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

/**
 * The snapshot `value` holds (`{ tasks, nextId }`, extra keys such as `action` ignored), or the
 * text of the first thing wrong with it: a malformed task, a duplicate id, a nextId not above
 * every id, a dependency on a missing task or on itself, or a cycle.
 */
export function readSnapshot(value: unknown): TodoSnapshot | string {
  if (!isRecord(value)) return 'expected an object with tasks and nextId';
  const { tasks, nextId } = value;
  if (!Array.isArray(tasks)) return 'tasks: expected an array';
  if (!isId(nextId)) return 'nextId: expected an integer of at least 1';
  const byId = new Map<number, TodoTask>();
  for (const [index, raw] of tasks.entries()) {
    if (!isRecord(raw)) return `tasks[${index}]: expected a task object`;
    const { id, subject, status, description, activeForm, owner, blockedBy, metadata } = raw;
    if (!isId(id)) return `tasks[${index}].id: expected an integer of at least 1`;
    if (byId.has(id)) return `tasks[${index}].id: #${id} appears twice`;
    if (id >= nextId) return `nextId ${nextId} is not above #${id}`;
    if (typeof subject !== 'string') return `tasks[${index}].subject: expected a string`;
    if (!TODO_STATUSES.includes(status as TodoTaskStatus)) return `tasks[${index}].status: not a status`;
    if (!optionalString(description) || !optionalString(activeForm) || !optionalString(owner)) {
      return `tasks[${index}]: description, activeForm and owner must be strings`;
    }
    if (metadata !== undefined && !isRecord(metadata)) return `tasks[${index}].metadata: expected an object`;
    if (blockedBy !== undefined && !(Array.isArray(blockedBy) && blockedBy.every(isId))) {
      return `tasks[${index}].blockedBy: expected an array of ids`;
    }
    byId.set(id, raw as unknown as TodoTask);
  }
  for (const task of byId.values()) {
    for (const dep of task.blockedBy ?? []) {
      if (dep === task.id) return `#${task.id} is blocked on itself`;
      if (!byId.has(dep)) return `#${task.id} is blocked by #${dep}, which is not in the list`;
    }
  }
  if (hasCycle(byId.keys(), (id) => byId.get(id)?.blockedBy ?? [])) return 'the blockedBy graph has a cycle';
  return { tasks: [...byId.values()], nextId };
}

/**
 * The state rebuilt from a transcript's `details`, as rpiv-todo's session handlers do: the last
 * snapshot that validates wins (a rejected call's details carry the unchanged state, so they
 * count too). Entries that are not valid snapshots are skipped. With none: an empty list, next id 1.
 */
export function replayTodo(details: readonly unknown[]): TodoSnapshot {
  for (let i = details.length - 1; i >= 0; i -= 1) {
    const snapshot = readSnapshot(details[i]);
    if (typeof snapshot !== 'string') return snapshot;
  }
  return { tasks: [], nextId: 1 };
}
