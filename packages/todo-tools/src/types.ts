/** The status of a stored task or todo item. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/**
 * One entry of the list as `onUpdate` receives it and `tasks()` returns it (seed 000): every
 * item has `content`, `status` and `activeForm`; a task adds `id`, `description`, `blocks`,
 * `blockedBy` and, when set, `owner` and `metadata`.
 */
export interface TodoItem {
  /** What to do; a task's subject. */
  content: string;
  status: TodoStatus;
  /** The present continuous form; defaults to `content`. */
  activeForm: string;
}

/** A task in the shape `onUpdate` receives and `tasks()` returns. */
export interface TaskItem extends TodoItem {
  /** Decimal id, "1", "2", ...; never reused. */
  id: string;
  description: string;
  /** Ids of the tasks that wait for this one. */
  blocks: string[];
  /** Ids of the tasks this one waits for. */
  blockedBy: string[];
  owner?: string;
  metadata?: Record<string, unknown>;
}

/** The events `beforeTask` is called for. */
export type TaskEvent = 'TaskCreated' | 'TaskCompleted';

/** What the direct API of a task tool answers: the tool result text and whether it is an error. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
}

/**
 * What changed in a task list (TodoTools' `onChange`): the tasks put (created or changed), as they
 * are now, and the ids removed. `whole` is true when the list was read whole (another process's
 * changes could not be told apart), and `put` is then the whole list. `put` is copied when first
 * read: read it in the callback (an observer that does not read it pays nothing for it).
 */
export interface TaskListChange {
  put: TaskItem[];
  removed: string[];
  whole: boolean;
}
