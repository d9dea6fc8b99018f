// The shapes the three families hand out and their stores keep: Claude Code's task tools
// (TaskItem) and todo_write (TodoWriteItem), rpiv-todo's `todo` tool (TodoSnapshot, TodoTask).
// They sit here, apart from the families, so store/ names them without importing a family.

/**
 * The status of a task of the task tools or an item of todo_write, as Claude Code names them (the
 * `todo` tool's statuses, which add `deleted`, are TodoTaskStatus).
 */
export type TaskStatus = 'pending' | 'in_progress' | 'completed';

/**
 * One item of todo_write's list, in the shape of Claude Code's TodoWrite, as `onUpdate` receives
 * it: `content`, `status` and `activeForm`. A task of the task tools (TaskItem) comes in the same
 * shape with more fields, so an application can show either family's list alike.
 */
export interface TodoWriteItem {
  /** What to do; a task's subject. */
  content: string;
  status: TaskStatus;
  /** The present continuous form; defaults to `content`. */
  activeForm: string;
}

/**
 * A task of the task tools in the shape `onUpdate` receives and `tasks()` returns: todo_write's
 * item shape (`content` is the subject) plus `id`, `description`, `blocks`, `blockedBy` and, when
 * set, `owner` and `metadata`.
 */
export interface TaskItem extends TodoWriteItem {
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
 * What changed in a task list (TaskTools' `onChange`): the tasks put (created or changed), as they
 * are now, and the ids removed. `whole` is true when the list was read whole (another process's
 * changes could not be told apart), and `put` is then the whole list. `put` is copied when first
 * read: read it in the callback (an observer that does not read it pays nothing for it).
 */
export interface TaskListChange {
  put: TaskItem[];
  removed: string[];
  whole: boolean;
}

/** The status of a task of rpiv-todo's `todo` tool; `deleted` marks a tombstone. */
export type TodoTaskStatus = 'pending' | 'in_progress' | 'completed' | 'deleted';

/** A task of rpiv-todo's `todo` tool as snapshots hold it. Optional fields are absent when unset. */
export interface TodoTask {
  id: number;
  subject: string;
  description?: string;
  activeForm?: string;
  status: TodoTaskStatus;
  /** Ids this task waits on; absent when none. */
  blockedBy?: number[];
  owner?: string;
  metadata?: Record<string, unknown>;
}

/**
 * The state of a `todo` list, what its results' `details` carry and its store keeps: every task
 * (tombstones included) in id order, and the next id.
 */
export interface TodoSnapshot {
  tasks: readonly TodoTask[];
  nextId: number;
}
