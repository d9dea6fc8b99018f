/**
 * TODO_GUIDANCE: what a model should know to use the `todo` tool well, in the spirit of
 * rpiv-todo's prompt guidelines. Put it in the system prompt or the MCP server's instructions.
 */
export const TODO_GUIDANCE: string = [
  'Use the `todo` tool to plan and track multi-step work.',
  '- Open a list when a task needs three or more steps, when the user gives several things to do, or when they ask for a todo list. Skip it for a single trivial step.',
  '- Create one task per step with a short imperative subject, and an activeForm ("Running the tests") to show while it is in progress.',
  '- Keep exactly one task in_progress at a time: set it before you start the work.',
  '- Mark a task completed immediately when it is done; do not batch completions.',
  '- Never mark a task completed while its tests fail, the work is partial, or errors are unresolved; keep it in_progress and add a task for the blocker.',
  '- Change a status with `{"action": "update", "id": 3, "status": "in_progress"}`; ids are integers.',
  '- Record order with blockedBy on create or addBlockedBy/removeBlockedBy on update (send only the ids to add or remove).',
  '- Delete tasks that no longer apply rather than leaving them pending; `list` shows where things stand.',
].join('\n');
