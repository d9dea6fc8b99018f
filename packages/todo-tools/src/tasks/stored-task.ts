/**
 * A task as the task list keeps it in memory (a store's record with its links as sets), and its
 * two other shapes: the record a store keeps (Claude Code's, in its field order) and the item
 * `onUpdate` hands out. Each conversion copies, so no shape shares an object with another.
 */
import type { TaskRecord } from '../store/task-store.js';
import type { TaskItem } from '../types.js';

/** A task as the list keeps it in memory: a store's record, its links as mirrored sets. */
export interface StoredTask extends Omit<TaskRecord, 'blocks' | 'blockedBy'> {
  /** Ids of the tasks that wait for this one (mirrored in their blockedBy). */
  blocks: Set<string>;
  /** Ids of the tasks this one waits for (mirrored in their blocks). */
  blockedBy: Set<string>;
}

/** The task in the shape `onUpdate` receives: a copy that shares nothing with the list. */
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

/**
 * The task as a store keeps it: Claude Code's record, in its field order (a store that writes
 * JSON writes what Claude Code's own files hold, key for key).
 */
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

/** A stored record as the list keeps it: links as sets, a link of a task to itself dropped. */
export function fromRecord(record: TaskRecord): StoredTask {
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

/**
 * A copy of `task` that shares nothing with it (its sets and metadata copied), as an undo keeps
 * it: a task without metadata stays without the key.
 */
export function copyTask(task: StoredTask): StoredTask {
  const copy: StoredTask = { ...task, blocks: new Set(task.blocks), blockedBy: new Set(task.blockedBy) };
  if (task.metadata !== undefined) copy.metadata = structuredClone(task.metadata);
  return copy;
}
