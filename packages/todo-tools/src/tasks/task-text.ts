/** The answer texts of task_list and task_get, exactly as Claude Code words them. */
import type { StoredTask } from './stored-task.js';
import type { TaskList } from './task-list.js';

const ids = (list: Iterable<string>): string => [...list].map((id) => `#${id}`).join(', ');

/** True for a task task_list leaves out: one whose metadata has `_internal`. */
export function isInternal(task: StoredTask): boolean {
  return task.metadata !== undefined && Object.hasOwn(task.metadata, '_internal');
}

/**
 * One task_list line: `#ID [STATUS] SUBJECT (OWNER) [blocked by #A, #B]`, the owner only when
 * set, the blockers only those not completed yet.
 */
export function listLine(task: StoredTask, store: TaskList): string {
  let line = `#${task.id} [${task.status}] ${task.subject}`;
  if (task.owner !== undefined) line += ` (${task.owner})`;
  const open = [...task.blockedBy].filter((id) => store.get(id)?.status !== 'completed');
  if (open.length) line += ` [blocked by ${ids(open)}]`;
  return line;
}

/**
 * task_get's lines: `Task #ID: SUBJECT`, `Status: ...`, `Description: ...`, then
 * `Blocked by: #A, ...` and `Blocks: #B, ...` when not empty. As Claude Code 2.1.332 answers,
 * `Blocked by:` lists only the blockers not completed (one not in the list stays listed);
 * `Blocks:` is not filtered.
 */
export function getText(task: StoredTask, store: TaskList): string {
  const lines = [`Task #${task.id}: ${task.subject}`, `Status: ${task.status}`, `Description: ${task.description}`];
  const open = [...task.blockedBy].filter((id) => store.get(id)?.status !== 'completed');
  if (open.length) lines.push(`Blocked by: ${ids(open)}`);
  if (task.blocks.size) lines.push(`Blocks: ${ids(task.blocks)}`);
  return lines.join('\n');
}
