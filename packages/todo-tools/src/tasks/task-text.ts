/**
 * The answer texts of task_list and task_get, exactly as Claude Code words them, with what a model
 * or an agent wrote shown in the kit's one visible form (issue 36): a subject, an owner or a
 * blocker's id on one line (`oneLine`: a line break as `⏎`, a control character as its control
 * picture), a description on its own lines (`multiLine`: a later line that reads like raider's
 * framing behind `> `). So no task can plant a line that reads as another task, on a list every
 * agent of a team reads. Plain text is shown exactly as given; the stored values never change.
 */
import { multiLine, oneLine } from '@raider/kit/shown-text';
import type { StoredTask } from './stored-task.js';
import type { TaskList } from './task-list.js';

// A stored link may name a task whose record is gone, with any id a hand-edited file holds.
const ids = (list: Iterable<string>): string => [...list].map((id) => `#${oneLine(id)}`).join(', ');

/** True for a task task_list leaves out: one whose metadata has `_internal`. */
export function isInternal(task: StoredTask): boolean {
  return task.metadata !== undefined && Object.hasOwn(task.metadata, '_internal');
}

/**
 * The blockers of `task` task_list and task_get show: those not completed, in its order. A blocker
 * whose record is missing (its file deleted by hand or by another process) is not completed, so it
 * stays listed, as Claude Code 2.1.332 lists it.
 */
export function openBlockers(task: StoredTask, store: TaskList): string[] {
  return [...task.blockedBy].filter((id) => store.get(id)?.status !== 'completed');
}

/**
 * One task_list line: `#ID [STATUS] SUBJECT (OWNER) [blocked by #A, #B]`, the owner only when
 * set, the blockers only those not completed yet. Subject and owner are shown on one line
 * (`oneLine`), so the line is always exactly one line.
 */
export function listLine(task: StoredTask, store: TaskList): string {
  let line = `#${task.id} [${task.status}] ${oneLine(task.subject)}`;
  if (task.owner !== undefined) line += ` (${oneLine(task.owner)})`;
  const open = openBlockers(task, store);
  if (open.length) line += ` [blocked by ${ids(open)}]`;
  return line;
}

/**
 * task_get's lines: `Task #ID: SUBJECT`, `Status: ...`, `Description: ...`, then
 * `Blocked by: #A, ...` and `Blocks: #B, ...` when not empty. As Claude Code 2.1.332 answers,
 * `Blocked by:` lists only the blockers not completed (one whose record is missing stays listed);
 * `Blocks:` is not filtered. The subject is one line (`oneLine`); the description keeps its lines
 * (`multiLine`), none of which after the first can read as one of these labels or a task line.
 */
export function getText(task: StoredTask, store: TaskList): string {
  const lines = [
    `Task #${task.id}: ${oneLine(task.subject)}`,
    `Status: ${task.status}`,
    `Description: ${multiLine(task.description)}`,
  ];
  const open = openBlockers(task, store);
  if (open.length) lines.push(`Blocked by: ${ids(open)}`);
  if (task.blocks.size) lines.push(`Blocks: ${ids(task.blocks)}`);
  return lines.join('\n');
}
