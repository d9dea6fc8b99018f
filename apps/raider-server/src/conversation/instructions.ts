/** The server `instructions`: how a model should use the family this conversation mounts. */
import { TODO_GUIDANCE } from '@raider/todo-tools/v2';
import { claudeName } from '@raider/tool-names';
import type { Family, Names } from '../types.js';

/** The instructions for a family under a naming. */
export function instructions(family: Family, names: Names): string {
  const named = (tool: string) => (names === 'claude' ? (claudeName(tool) ?? tool) : tool);
  const ask = `Ask the person with ${named('ask_user')} when a decision is theirs.`;
  const alone = 'If the answer says nobody can answer, decide for yourself and say what you assumed.';
  switch (family) {
    case 'tasks':
      return [
        `Track multi-step work as tasks: ${named('task_create')} for each step (subject, description), ${named('task_update')} to set status in_progress when you start and completed as soon as it is done (deleted removes a task), addBlocks/addBlockedBy for order, ${named('task_list')} to see where things stand, ${named('task_get')} for one task in full.`,
        'Keep one task in_progress at a time; never mark a task completed while its tests fail.',
        `${ask} ${alone}`,
      ].join('\n');
    case 'todo_write':
      return [
        `Track multi-step work with ${named('todo_write')}: send the whole list every time, each item { content, status, activeForm }.`,
        'Keep exactly one item in_progress; mark items completed as soon as they are done, never while tests fail.',
        `${ask} ${alone}`,
      ].join('\n');
    case 'todo':
      return `${TODO_GUIDANCE}\n${ask} ${alone}`;
  }
}
