/**
 * TODO_GUIDANCE: what a model should know to use the `todo` tool well, in the spirit of
 * rpiv-todo's prompt guidance: a prompt snippet (one line) and guidelines (bullets). Put it in the
 * system prompt or the MCP server's instructions. Either part can be replaced, as rpiv-todo's
 * `guidance` config allows.
 */
import { InvalidOptionError } from '../errors.js';

/** The parts of the guidance; either may be replaced (`new TodoTool({ guidance })`). */
export interface TodoGuidance {
  /** One line saying what the tool is for. */
  promptSnippet?: string;
  /** The rules of use, one bullet each. */
  promptGuidelines?: readonly string[];
}

const DEFAULT_PROMPT_SNIPPET = 'Use the `todo` tool to plan and track multi-step work.';
const DEFAULT_PROMPT_GUIDELINES: readonly string[] = Object.freeze([
  'Open a list when a task needs three or more steps, when the user gives several things to do, or when they ask for a todo list. Skip it for a single trivial step.',
  'Create one task per step with a short imperative subject, and an activeForm ("Running the tests") to show while it is in progress.',
  'Keep exactly one task in_progress at a time: set it before you start the work.',
  'Mark a task completed immediately when it is done; do not batch completions.',
  'Never mark a task completed while its tests fail, the work is partial, or errors are unresolved; keep it in_progress and add a task for the blocker.',
  'Change a status with `{"action": "update", "id": 3, "status": "in_progress"}`; ids are integers.',
  'Record order with blockedBy on create or addBlockedBy/removeBlockedBy on update (send only the ids to add or remove).',
  'Delete tasks that no longer apply rather than leaving them pending; `list` shows where things stand.',
]);

/**
 * The guidance as instructions text: the snippet, then one `- ` line per guideline. A part left
 * out takes the default.
 * @throws InvalidOptionError (a TypeError) when `promptSnippet` is not a string or `promptGuidelines` not an array of strings.
 */
export function guidanceText(guidance: TodoGuidance = {}): string {
  const { promptSnippet = DEFAULT_PROMPT_SNIPPET, promptGuidelines = DEFAULT_PROMPT_GUIDELINES } = guidance;
  if (typeof promptSnippet !== 'string') {
    throw new InvalidOptionError(`guidance.promptSnippet: expected a string, received ${typeof promptSnippet}`);
  }
  if (!Array.isArray(promptGuidelines) || !promptGuidelines.every((line) => typeof line === 'string')) {
    throw new InvalidOptionError('guidance.promptGuidelines: expected an array of strings');
  }
  return [promptSnippet, ...promptGuidelines.map((line) => `- ${line}`)].join('\n');
}

/** The default guidance as one text (the `todo` server's instructions unless replaced). */
export const TODO_GUIDANCE: string = guidanceText();
