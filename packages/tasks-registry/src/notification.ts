/**
 * Claude Code's `<task-notification>` user message (seed 001, `notification_text`), and the
 * `<system-reminder>` it is wrapped in when it arrives next to a genuine user message.
 */
import { RegistryArgumentError, RegistryRangeError } from './errors.js';

/** How a piece of background work ended. */
export type EndStatus = 'completed' | 'failed' | 'killed';

/** The statuses a notification (and `finish`) accepts. */
export const END_STATUSES: readonly EndStatus[] = ['completed', 'failed', 'killed'];

/** Usage figures: an object (its entries in order) or a list of `[name, value]` pairs. */
export type Usage = Readonly<Record<string, unknown>> | ReadonlyArray<readonly [string, unknown]>;

/** The fields of a `<task-notification>`. */
export interface NotificationFields {
  /** The id of the entry that ended (`agent_1`). Required. */
  taskId: string;
  /** The tool_use id of the call that started the work. */
  toolUseId?: string;
  /** How it ended. Required. */
  status: EndStatus;
  /** One line for the model (`Agent "Find the tests" finished`). Required. */
  summary: string;
  /** What a monitor printed. */
  event?: string;
  /** The work's report. */
  result?: string;
  /** Usage figures, in the order given: `{ subagent_tokens: 1200, tool_uses: 4, duration_ms: 5300 }`. */
  usage?: Usage;
  /** The worktree an isolated agent ran in (`branch` optional). */
  worktree?: { path: string; branch?: string };
}

/** `text` with `&`, `<` and `>` escaped. Other values are turned into text first. */
// biome-ignore lint/suspicious/noShadowRestrictedNames: `escape` is the seed's name for it; the deprecated global is not used here
export function escape(text: unknown): string {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const ELEMENT_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function usagePairs(usage: Usage): [string, unknown][] {
  if (!Array.isArray(usage)) {
    if (typeof usage !== 'object' || usage === null) {
      throw new RegistryArgumentError(
        `notificationText: usage: expected an object or a list of [name, value] pairs, received ${typeof usage}`,
      );
    }
    return Object.entries(usage);
  }
  return usage.map((pair, index) => {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw new RegistryArgumentError(
        `notificationText: usage[${index}]: expected a [name, value] pair, received ${JSON.stringify(pair)}`,
      );
    }
    return [pair[0], pair[1]] as [string, unknown];
  });
}

function requireString(field: string, value: unknown): void {
  if (typeof value !== 'string') {
    throw new RegistryArgumentError(
      `notificationText: ${field}: expected a string, received ${value === undefined ? 'nothing' : typeof value}`,
    );
  }
}

/**
 * The `<task-notification>` of a piece of work that ended, in Claude Code's form: one element a
 * line in the order task-id, tool-use-id, status, summary, event, result, usage, worktree, each
 * only when given (not undefined or null); usage as its pairs in the order given; the text of
 * every element escaped.
 *
 * @throws RegistryArgumentError (a TypeError) when taskId or summary is not a string, or usage is malformed;
 *   RangeError for a status other than completed, failed or killed.
 */
export function notificationText(fields: NotificationFields): string {
  requireString('taskId', fields.taskId);
  requireString('summary', fields.summary);
  if (!END_STATUSES.includes(fields.status)) {
    throw new RegistryRangeError(
      `notificationText: status: expected one of ${END_STATUSES.join(', ')}, received ${JSON.stringify(fields.status)}`,
    );
  }
  const given = (value: unknown) => value !== undefined && value !== null;
  const lines = ['<task-notification>', `<task-id>${escape(fields.taskId)}</task-id>`];
  if (given(fields.toolUseId)) lines.push(`<tool-use-id>${escape(fields.toolUseId)}</tool-use-id>`);
  lines.push(`<status>${fields.status}</status>`, `<summary>${escape(fields.summary)}</summary>`);
  if (given(fields.event)) lines.push(`<event>${escape(fields.event)}</event>`);
  if (given(fields.result)) lines.push(`<result>${escape(fields.result)}</result>`);
  if (given(fields.usage)) {
    const pairs = usagePairs(fields.usage as Usage).map(([name, value]) => {
      if (typeof name !== 'string' || !ELEMENT_NAME.test(name)) {
        throw new RegistryArgumentError(
          `notificationText: usage: expected element names such as tool_uses, received ${JSON.stringify(name)}`,
        );
      }
      return `<${name}>${escape(value)}</${name}>`;
    });
    lines.push(`<usage>${pairs.join('')}</usage>`);
  }
  if (given(fields.worktree)) {
    const { path, branch } = fields.worktree as { path: string; branch?: string };
    requireString('worktree.path', path);
    const branchPart = given(branch) ? `<worktreeBranch>${escape(branch)}</worktreeBranch>` : '';
    lines.push(`<worktree><worktreePath>${escape(path)}</worktreePath>${branchPart}</worktree>`);
  }
  lines.push('</task-notification>');
  return lines.join('\n');
}

/** The line a reminder opens with: what follows is a notification, not the person's words. */
export const REMINDER_LINE =
  'The following is a notification about background work that ended; it is not input from the user.';

/**
 * A notification as Claude Code delivers it next to a genuine user message in the same turn: a
 * `<system-reminder>` block whose first line says it is a notification about background work and
 * not user input, then the notification.
 */
export function reminderText(notification: string): string {
  return `<system-reminder>\n${REMINDER_LINE}\n${notification}\n</system-reminder>`;
}
