/** todo_write: checks the whole list it is given and renders the answer. It holds no list. */
import type { z } from 'zod';
import { received } from '../received.js';
import type { TodoItem } from '../types.js';

/** Thrown by `check` for a list todo_write refuses; names the first wrong item. */
export class TodoListError extends Error {
  /** Stable code for programs. */
  readonly code = 'INVALID_TODO_LIST';
  /** Index of the first wrong item, or undefined when the list itself is wrong. */
  readonly index: number | undefined;

  constructor(message: string, index: number | undefined) {
    super(message);
    this.name = 'TodoListError';
    this.index = index;
  }
}

/**
 * The list as todo_write stores it (activeForm defaulted to content), or a TodoListError naming
 * the first wrong item: not an object, no content, an unknown status, a second in_progress item
 * (or a limit exceeded).
 */
export function checkTodos(items: unknown, itemSchema: z.ZodType, maxItems: number): TodoItem[] {
  if (!Array.isArray(items)) {
    throw new TodoListError(`todos: expected an array of items, received ${received(items)}`, undefined);
  }
  if (items.length > maxItems) {
    throw new TodoListError(`todos: expected at most ${maxItems} items, received ${items.length}`, undefined);
  }
  const list: TodoItem[] = [];
  let inProgress: number | undefined;
  items.forEach((raw, index) => {
    const parsed = itemSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `todos[${index}].${issue.path.join('.')}` : `todos[${index}]`;
      throw new TodoListError(`${where}: ${issue?.message ?? 'invalid item'}`, index);
    }
    const item = parsed.data as { content: string; status: TodoItem['status']; activeForm?: string };
    if (item.status === 'in_progress') {
      if (inProgress !== undefined) {
        throw new TodoListError(
          `todos[${index}].status: expected at most one in_progress item, received a second one (todos[${inProgress}] is in_progress)`,
          index,
        );
      }
      inProgress = index;
    }
    list.push({ content: item.content, status: item.status, activeForm: item.activeForm ?? item.content });
  });
  return list;
}

/**
 * The text todo_write answers: a count line with the number of items per status, then one
 * numbered line per item with its status, so a model reads the state at a glance.
 *
 * ```
 * 3 todos (1 completed, 1 in_progress, 1 pending)
 * 1. [completed] Run the tests
 * 2. [in_progress] Fix the login bug
 * 3. [pending] Update the docs
 * ```
 */
export function renderTodos(list: readonly TodoItem[]): string {
  const counts = { completed: 0, in_progress: 0, pending: 0 };
  for (const item of list) counts[item.status] += 1;
  const parts = (['completed', 'in_progress', 'pending'] as const)
    .filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${s}`);
  const head = `${list.length} ${list.length === 1 ? 'todo' : 'todos'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
  return [head, ...list.map((item, i) => `${i + 1}. [${item.status}] ${item.content}`)].join('\n');
}
