/**
 * Argument translation between raider tools and the Claude Code tools they stand for
 * (raider's table, "Arguments"): `claudeInput` is what a hook gets as `tool_input`,
 * `raiderInput` the way back (a hook's `updatedInput`).
 */

import { received } from '@raider/kit/received';
import { ToolNamesArgumentError } from './errors.js';

/** One argument that has another name, or another unit, on the other side. */
interface Rename {
  readonly from: string;
  readonly to: string;
  readonly convert?: (value: unknown) => unknown;
}

/** How one tool's arguments cross over in one direction. */
interface Direction {
  readonly renames: readonly Rename[];
  /** Keys written down when the input leaves them out (bash_output's `block`). */
  readonly defaults?: Readonly<Record<string, unknown>>;
}

// Timeouts: raider's bash takes whole seconds, Claude Code's Bash milliseconds. Values that
// are not finite numbers are the receiving tool's business and pass unchanged.
const secondsToMs = (value: unknown): unknown =>
  typeof value === 'number' && Number.isFinite(value) ? value * 1000 : value;
// Milliseconds that are not whole seconds become the next whole second.
const msToSeconds = (value: unknown): unknown =>
  typeof value === 'number' && Number.isFinite(value) ? Math.ceil(value / 1000) : value;

const FILE_PATH_OUT: Direction = { renames: [{ from: 'path', to: 'file_path' }] };
const FILE_PATH_BACK: Direction = { renames: [{ from: 'file_path', to: 'path' }] };

// raider tool -> how its arguments become the Claude Code tool's.
const TO_CLAUDE: ReadonlyMap<string, Direction> = new Map([
  ['read_file', FILE_PATH_OUT],
  ['write_file', FILE_PATH_OUT],
  ['edit_file', FILE_PATH_OUT],
  ['multi_edit', FILE_PATH_OUT],
  ['kill_shell', { renames: [{ from: 'shell_id', to: 'task_id' }] }],
  ['bash', { renames: [{ from: 'timeout', to: 'timeout', convert: secondsToMs }] }],
  [
    'bash_output',
    {
      renames: [
        { from: 'bash_id', to: 'task_id' },
        { from: 'timeout', to: 'timeout', convert: secondsToMs },
      ],
      // TaskOutput waits by default and raider's bash_output does not: write the default down.
      defaults: { block: false },
    },
  ],
]);

// raider tool -> how the Claude Code tool's arguments come back. kill_shell lets the
// deprecated shell_id through (it is raider's own name) and turns TaskStop's task_id into it.
const TO_RAIDER: ReadonlyMap<string, Direction> = new Map([
  ['read_file', FILE_PATH_BACK],
  ['write_file', FILE_PATH_BACK],
  ['edit_file', FILE_PATH_BACK],
  ['multi_edit', FILE_PATH_BACK],
  ['kill_shell', { renames: [{ from: 'task_id', to: 'shell_id' }] }],
  ['bash', { renames: [{ from: 'timeout', to: 'timeout', convert: msToSeconds }] }],
  [
    'bash_output',
    {
      renames: [
        { from: 'task_id', to: 'bash_id' },
        { from: 'timeout', to: 'timeout', convert: msToSeconds },
      ],
      // A TaskOutput input that leaves block out meant TaskOutput's default: wait.
      defaults: { block: true },
    },
  ],
]);

/** A received argument in JavaScript's words (the kit's describer, `by: 'javascript'`): `the string "ls"`, `an instance of Map`. */
const describe = (value: unknown): string => received(value, { by: 'javascript' });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function assertInput(fn: string, tool: unknown, args: unknown): asserts args is Record<string, unknown> {
  if (typeof tool !== 'string' || tool === '') {
    throw new ToolNamesArgumentError(
      `${fn}: expected a tool name (a non-empty string) as the first argument, received ${describe(tool)}`,
    );
  }
  if (!isPlainObject(args)) {
    throw new ToolNamesArgumentError(
      `${fn}: expected the arguments of ${tool} to be a plain object, received ${describe(args)}`,
    );
  }
}

function translate(args: Record<string, unknown>, direction: Direction | undefined): Record<string, unknown> {
  // Object.fromEntries defines own properties, so a "__proto__" key stays a plain key.
  if (!direction) return Object.fromEntries(Object.entries(args));
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(args)) {
    const rename = direction.renames.find((r) => r.from === key);
    if (rename) {
      entries.push([rename.to, rename.convert ? rename.convert(value) : value]);
      continue;
    }
    // The input carries both names of one argument: the translated key wins, this one is dropped.
    const shadowedBy = direction.renames.find((r) => r.to === key && r.from !== key && Object.hasOwn(args, r.from));
    if (shadowedBy) continue;
    entries.push([key, value]);
  }
  for (const [key, fallback] of Object.entries(direction.defaults ?? {})) {
    const at = entries.findIndex(([k]) => k === key);
    if (at === -1) entries.push([key, fallback]);
    else if (entries[at]?.[1] === undefined) entries[at] = [key, fallback];
  }
  return Object.fromEntries(entries);
}

/**
 * The arguments of raider tool `tool` in the form the Claude Code tool takes (what a hook gets
 * as `tool_input`). Always a new object; `args` is never changed. An unknown or `mcp__*` tool
 * gets a plain (shallow) copy.
 *
 * - read_file, write_file, edit_file, multi_edit: `path` -> `file_path`
 * - kill_shell: `shell_id` -> `task_id`
 * - bash: `timeout` seconds -> milliseconds
 * - bash_output: `bash_id` -> `task_id`, `timeout` seconds -> milliseconds, `block: false`
 *   written down when not given
 * - everything else (ask_user included) passes under its own name.
 *
 * When `args` carries both names of one argument (`path` and `file_path`), the translated key
 * wins and the other is dropped.
 *
 * @throws ToolNamesArgumentError (a TypeError) when `tool` is not a non-empty string or `args` is not a plain object.
 * @example claudeInput('read_file', { path: 'lib/A.pm' }) // { file_path: 'lib/A.pm' }
 */
export function claudeInput(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  assertInput('claudeInput', tool, args);
  return translate(args, TO_CLAUDE.get(tool));
}

/**
 * The way back: arguments in the Claude Code form for raider tool `tool` (a hook's
 * `updatedInput`), in raider's form. Same rules as {@link claudeInput}, reversed:
 *
 * - the four file tools: `file_path` -> `path`
 * - kill_shell: TaskStop's `task_id` -> `shell_id`; `shell_id` (KillShell, KillBash) passes
 * - bash: `timeout` milliseconds -> seconds, rounded up to the next whole second
 * - bash_output: a TaskOutput input (`task_id`) gets `task_id` -> `bash_id`, `timeout`
 *   milliseconds -> seconds (rounded up) and `block: true` when not given; an input with
 *   `bash_id` and no `task_id` is the older BashOutput and passes unchanged.
 *
 * @throws ToolNamesArgumentError (a TypeError) when `tool` is not a non-empty string or `args` is not a plain object.
 * @example raiderInput('edit_file', { file_path: '/abs/A.pm', old_string: 'a', new_string: 'b' })
 * // { path: '/abs/A.pm', old_string: 'a', new_string: 'b' }
 */
export function raiderInput(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  assertInput('raiderInput', tool, args);
  if (tool === 'bash_output' && Object.hasOwn(args, 'bash_id') && !Object.hasOwn(args, 'task_id')) {
    return translate(args, undefined);
  }
  return translate(args, TO_RAIDER.get(tool));
}
