/**
 * The repairs Claude Code 2.1.332 makes to a malformed TaskCreate or TaskUpdate call before it
 * checks it. Models trained on Claude Code send these shapes (`title` for `subject`, a `task`
 * wrapper, `id` for `taskId`, a number for an id), so the task tools take them the same way; what
 * Claude Code does not repair (a list of tasks in one call, an Agent call sent here) gets its
 * steering text. Everything else is left for the schema to accept or refuse.
 */

/** Claude Code's answer to a TaskCreate call carrying a list of tasks. */
export const MANY_TASKS_TEXT =
  'TaskCreate creates ONE task per call and has no `tasks` or `todos` parameter. Call TaskCreate once per task, passing `subject` (a brief title) and `description` (what needs to be done) as top-level string parameters.';

/** Claude Code's answer to a TaskCreate call shaped like an Agent call. */
export const AGENT_CALL_TEXT =
  'This call used Agent-tool parameters (`prompt`/`subagent_type`). TaskCreate adds an item to the task list and takes `subject` and `description` string parameters. To delegate work to a subagent, use the Agent tool instead.';

/** A repaired call: the arguments to check, or the steering text to answer with instead. */
export type Repaired = { args: unknown } | { steer: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Moves `from` to `to` when `to` is absent (Claude Code renames an alias only then). */
function rename(args: Record<string, unknown>, from: string, to: string): void {
  if (args[to] === undefined && args[from] !== undefined) {
    args[to] = args[from];
    delete args[from];
  }
}

/**
 * A subject cut from a description, as Claude Code cuts it: the first 80 characters, ending at
 * the last space when that comes after the 40th.
 */
export function subjectFrom(description: string): string {
  if (description.length <= 80) return description;
  const head = description.slice(0, 80);
  const space = head.lastIndexOf(' ');
  return space > 40 ? head.slice(0, space) : head;
}

/** A task id sent as a whole number (`1`), as the string the tools take (`"1"`); anything else as it is. */
function idString(value: unknown): unknown {
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
}

/**
 * TaskCreate's arguments as Claude Code repairs them: a `task` wrapper unwrapped (a string
 * becomes the description) when neither `subject` nor `description` is given; `title` or `name`
 * for `subject`, `content` for `description`, `active_form` for `activeForm`; a missing
 * description copied from the subject, a missing subject cut from the description.
 */
export function repairCreate(raw: unknown): Repaired {
  if (!isPlainObject(raw)) return { args: raw };
  const args: Record<string, unknown> = { ...raw };
  if (args.subject === undefined && args.description === undefined) {
    if (Array.isArray(args.tasks) || Array.isArray(args.todos)) return { steer: MANY_TASKS_TEXT };
    if (args.prompt !== undefined || args.subagent_type !== undefined) return { steer: AGENT_CALL_TEXT };
    const wrapped = args.task;
    if (typeof wrapped === 'string') {
      delete args.task;
      args.description = wrapped;
    } else if (isPlainObject(wrapped)) {
      delete args.task;
      for (const [key, value] of Object.entries(wrapped)) if (args[key] === undefined) args[key] = value;
    }
  }
  rename(args, 'title', 'subject');
  rename(args, 'name', 'subject');
  rename(args, 'content', 'description');
  rename(args, 'active_form', 'activeForm');
  if (args.description === undefined && typeof args.subject === 'string') args.description = args.subject;
  if (args.subject === undefined && typeof args.description === 'string') args.subject = subjectFrom(args.description);
  return { args };
}

/** TaskUpdate's arguments as Claude Code repairs them: `id` or `task_id` for `taskId`, `active_form` for `activeForm`, a numeric id as a string. */
export function repairUpdate(raw: unknown): unknown {
  if (!isPlainObject(raw)) return raw;
  const args: Record<string, unknown> = { ...raw };
  rename(args, 'id', 'taskId');
  rename(args, 'task_id', 'taskId');
  rename(args, 'active_form', 'activeForm');
  if (args.taskId !== undefined) args.taskId = idString(args.taskId);
  return args;
}

/** task_get's and task_claim's arguments with a numeric `taskId` (`1`) taken as the string id (`"1"`). */
export function repairTaskId(raw: unknown): unknown {
  if (!isPlainObject(raw) || typeof raw.taskId !== 'number') return raw;
  return { ...raw, taskId: idString(raw.taskId) };
}
