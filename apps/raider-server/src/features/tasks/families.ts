/**
 * The task-list family a conversation mounts (the task tools or todo_write, after Claude Code's, or
 * rpiv-todo's `todo`), on its own list in memory or on a shared or durable one. The tools are made
 * once per conversation and registered on every server that serves it (one per connection, or one
 * per request in the 2026 era over HTTP): registering is cheap, the list state is the tools'.
 */
import {
  type TaskListLimits,
  TaskTools,
  type TodoSnapshot,
  TodoTool,
  type TodoWriteItem,
  type TodoWriteState,
  TodoWriteTool,
  type ToolRegistrar,
} from '@raider/todo-tools/v2';
import type { ListHandle } from '../../lists/list-handle.js';
import type { Logger } from '../../log.js';
import type { Family } from '../../types.js';

/** Which tools beside the family's own, and how they present their results (see the server's options). */
export interface FamilyTools {
  /** Mount task_claim beside the task tools (the tasks family). */
  claims: boolean;
  /** Results carry structuredContent and the tools declare output schemas. */
  structuredOutput: boolean;
  /** The tools carry `_meta["anthropic/alwaysLoad"]`. */
  alwaysLoad: boolean;
}

/** A family's tools: what raider://tasks shows, how to mount them, how to stop hearing of changes made elsewhere. */
export interface MountedFamily {
  /** Registers the family's tools on `server`. */
  register(server: ToolRegistrar): void;
  /** The list as it stands now (with a store, caught up with changes made elsewhere). */
  listState(): Promise<unknown>;
  /** Stops watching the list for changes made elsewhere. */
  stop(): void;
  /** Changes a task's status through the family's own tool (none for todo_write, replaced whole). */
  setStatus?: (taskId: string, status: string) => Promise<{ text: string; isError: boolean }>;
}

/**
 * Makes `family`'s tools, on `list` when given. `changed` is called after every change of the
 * list, made here or (through the list's watch and its change feed) elsewhere.
 */
export function mountFamily(
  family: Family,
  list: ListHandle | undefined,
  limits: Partial<TaskListLimits>,
  changed: () => void,
  log: Logger,
  tools: FamilyTools = { claims: false, structuredOutput: false, alwaysLoad: false },
): MountedFamily {
  const { claims, ...presentation } = tools;
  if (family === 'todo') {
    const store = list?.store<TodoSnapshot>('todo');
    const todo = new TodoTool({ onChange: changed, limits, ...presentation, ...(store ? { store } : {}) });
    return {
      register: (server) => todo.register(server),
      listState: async () => ({ family: 'todo', ...((store && (await store.load())) ?? todo.snapshot()) }),
      stop: list?.watch(changed) ?? (() => {}),
      setStatus: async (taskId, status) => {
        const result = await todo.callAsync({ action: 'update', id: Number(taskId), status });
        return { text: result.content[0]?.text ?? '', isError: result.details.error !== undefined };
      },
    };
  }
  if (family === 'todo_write') {
    const store = list?.store<TodoWriteState>('todo_write');
    let todos: TodoWriteItem[] = [];
    const tools = new TodoWriteTool({
      limits,
      ...presentation,
      onUpdate: (items) => {
        todos = items;
        changed();
      },
      ...(store ? { store } : {}),
    });
    return {
      register: (server) => tools.register(server),
      listState: async () => ({ family: 'todo_write', todos: (store && (await store.load())?.todos) ?? todos }),
      stop: list?.watch(changed) ?? (() => {}),
    };
  }
  // onChange, not onUpdate: an observer that gets only what changed costs the same at any size.
  const taskTools = new TaskTools({
    onChange: changed,
    limits,
    ...presentation,
    ...(list ? { store: list.tasks() } : {}),
  });
  // A change made elsewhere: catch up from the change feed (onChange then calls `changed`).
  const catchUp = () =>
    taskTools.syncTasks().catch((error: unknown) => {
      log.debug(`list ${list?.id}: could not catch up (${error instanceof Error ? error.message : String(error)})`);
    });
  return {
    register: (server) => {
      taskTools.register(server);
      if (claims) taskTools.registerClaim(server);
    },
    listState: async () => {
      if (list) await catchUp();
      return { family: 'tasks', tasks: taskTools.tasks() };
    },
    stop: list?.watch(() => void catchUp()) ?? (() => {}),
    setStatus: (taskId, status) => taskTools.updateTask({ taskId, status }),
  };
}
