/**
 * The content strings of rpiv-todo's `todo` tool. What a model wrote (a subject, a description,
 * an activeForm, an owner) is shown on one line in the kit's one visible form (`oneLine` of
 * `@raider/kit/shown-text`, issue 36): a line break as `⏎`, any other control character as its
 * control picture (`␛`, `␇`, `␉`), C1 and bidi controls as `\uXXXX`. So a subject can neither
 * restyle a terminal, reorder what a reader sees, nor forge extra result lines; the stored value
 * keeps what was sent. A description stays one line here too: the `get` block's fields are lines of
 * their own (`  owner: …`), which a description's later lines could otherwise mimic.
 */
import { oneLine } from '@raider/kit/shown-text';
import type { TodoTask } from '../types.js';

const refs = (ids: readonly number[], sep: string): string => ids.map((id) => `#${id}`).join(sep);

/** `Created #3: Write the parser (pending)` */
export function createdText(task: TodoTask): string {
  return `Created #${task.id}: ${oneLine(task.subject)} (${task.status})`;
}

/** `Updated #3 (pending → in_progress)`, or `Updated #3` without a status change. */
export function updatedText(id: number, from: string, to: string): string {
  return from === to ? `Updated #${id}` : `Updated #${id} (${from} → ${to})`;
}

/** `No change: #3 already matches the requested values (status: in_progress)` */
export function noChangeText(id: number, status: string): string {
  return `No change: #${id} already matches the requested values (status: ${status})`;
}

/** `Deleted #3: Write the parser` */
export function deletedText(task: TodoTask): string {
  return `Deleted #${task.id}: ${oneLine(task.subject)}`;
}

/** `Cleared 7 tasks` */
export function clearedText(count: number): string {
  return `Cleared ${count} tasks`;
}

/**
 * One `list` row: `[in_progress] #3 Write the parser (writing the parser) ⛓ #1,#2`; the
 * activeForm only for the task in progress, the chain only when it waits on something.
 */
export function listRow(task: TodoTask): string {
  const form = task.status === 'in_progress' && task.activeForm ? ` (${oneLine(task.activeForm)})` : '';
  const chain = task.blockedBy?.length ? ` ⛓ ${refs(task.blockedBy, ',')}` : '';
  return `[${task.status}] #${task.id} ${oneLine(task.subject)}${form}${chain}`;
}

/** `No tasks`: a list with nothing to show. */
export const NO_TASKS = 'No tasks';

/**
 * The `get` block: `#3 [pending] SUBJECT`, then indented `description:`, `activeForm:`,
 * `blockedBy:`, `blocks:` (the reverse edges) and `owner:` lines for what is set.
 */
export function getBlock(task: TodoTask, blocks: readonly number[]): string {
  const lines = [`#${task.id} [${task.status}] ${oneLine(task.subject)}`];
  if (task.description) lines.push(`  description: ${oneLine(task.description)}`);
  if (task.activeForm) lines.push(`  activeForm: ${oneLine(task.activeForm)}`);
  if (task.blockedBy?.length) lines.push(`  blockedBy: ${refs(task.blockedBy, ', ')}`);
  if (blocks.length) lines.push(`  blocks: ${refs(blocks, ', ')}`);
  if (task.owner) lines.push(`  owner: ${oneLine(task.owner)}`);
  return lines.join('\n');
}

/** `Error: <message>`: how every rejection reads in `content`. */
export function errorText(message: string): string {
  return `Error: ${message}`;
}
