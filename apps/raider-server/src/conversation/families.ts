/**
 * The task-list family a conversation mounts (seed 000's task tools or todo_write, or seed 002's
 * `todo`), on its own list in memory or on a shared or durable one.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type TaskListState,
  type TodoItem,
  type TodoLimits,
  type TodoSnapshot,
  TodoTool,
  TodoTools,
  type TodoWriteState,
} from '@raider/todo-tools';
import type { ListHandle } from '../lists/memory-lists.js';
import type { Family } from '../types.js';

/**
 * Mounts `family`'s tools on `mount`, on `list` when given. `changed` is called after every change
 * of the list. Returns what raider://tasks shows: the list as it stands now.
 */
export function mountFamily(
  mount: McpServer,
  family: Family,
  list: ListHandle | undefined,
  limits: Partial<TodoLimits>,
  changed: () => void,
): () => Promise<unknown> {
  if (family === 'todo') {
    const store = list?.store<TodoSnapshot>('todo');
    const todo = new TodoTool({ onUpdate: changed, limits, ...(store ? { store } : {}) });
    todo.register(mount);
    return async () => ({ family: 'todo', ...((store && (await store.load())) ?? todo.snapshot()) });
  }
  if (family === 'todo_write') {
    const store = list?.store<TodoWriteState>('todo_write');
    let todos: TodoItem[] = [];
    const tools = new TodoTools({
      limits,
      onUpdate: (items) => {
        todos = items as TodoItem[];
        changed();
      },
      ...(store ? { todoWriteStore: store } : {}),
    });
    tools.registerTodoWrite(mount);
    return async () => ({ family: 'todo_write', todos: (store && (await store.load())?.todos) ?? todos });
  }
  const store = list?.store<TaskListState>('tasks');
  const tools = new TodoTools({ onUpdate: changed, limits, ...(store ? { taskStore: store } : {}) });
  tools.registerTaskTools(mount);
  return async () => ({ family: 'tasks', tasks: (store && (await store.load())?.tasks) ?? tools.tasks() });
}
