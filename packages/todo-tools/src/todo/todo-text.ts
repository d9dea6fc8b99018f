/** The content strings of rpiv-todo's `todo` tool and the hygiene of text echoed into them. */
import type { TodoTask } from '../types.js';

// Terminal control sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other ESC pairs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
// Line breaks of every kind become a visible "\n".
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const BREAKS = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;
// C0 and C1 controls and DEL; bidi embedding, override, isolate and mark characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as it may be echoed into a result: terminal control sequences and bidi controls removed,
 * line breaks shown as `\n`, tabs as spaces, so a subject can neither restyle a terminal, reorder
 * what a reader sees, nor forge extra result lines. The stored value keeps what was sent.
 */
export function neutralise(text: string): string {
  return text.replace(ESCAPES, '').replace(BREAKS, '\\n').replace(/\t/g, ' ').replace(CONTROLS, '');
}

const refs = (ids: readonly number[], sep: string): string => ids.map((id) => `#${id}`).join(sep);

/** `Created #3: Write the parser (pending)` */
export function createdText(task: TodoTask): string {
  return `Created #${task.id}: ${neutralise(task.subject)} (${task.status})`;
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
  return `Deleted #${task.id}: ${neutralise(task.subject)}`;
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
  const form = task.status === 'in_progress' && task.activeForm ? ` (${neutralise(task.activeForm)})` : '';
  const chain = task.blockedBy?.length ? ` ⛓ ${refs(task.blockedBy, ',')}` : '';
  return `[${task.status}] #${task.id} ${neutralise(task.subject)}${form}${chain}`;
}

/** `No tasks`: a list with nothing to show. */
export const NO_TASKS = 'No tasks';

/**
 * The `get` block: `#3 [pending] SUBJECT`, then indented `description:`, `activeForm:`,
 * `blockedBy:`, `blocks:` (the reverse edges) and `owner:` lines for what is set.
 */
export function getBlock(task: TodoTask, blocks: readonly number[]): string {
  const lines = [`#${task.id} [${task.status}] ${neutralise(task.subject)}`];
  if (task.description) lines.push(`  description: ${neutralise(task.description)}`);
  if (task.activeForm) lines.push(`  activeForm: ${neutralise(task.activeForm)}`);
  if (task.blockedBy?.length) lines.push(`  blockedBy: ${refs(task.blockedBy, ', ')}`);
  if (blocks.length) lines.push(`  blocks: ${refs(blocks, ', ')}`);
  if (task.owner) lines.push(`  owner: ${neutralise(task.owner)}`);
  return lines.join('\n');
}

/** `Error: <message>`: how every rejection reads in `content`. */
export function errorText(message: string): string {
  return `Error: ${message}`;
}
