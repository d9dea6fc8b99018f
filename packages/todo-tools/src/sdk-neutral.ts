// What the two entries share: every export of the SDK-neutral core, listed once. `.` (index.ts, SDK
// v1) and `./v2` (v2/index.ts, SDK v2) each re-export all of it, the same objects, and add only their
// own TaskTools, TodoWriteTool, TodoTool and registrar types (decision 0010). Not an entry itself:
// a name added here appears in both entries, and fails both barrel tests until it is listed there
// (src/testing/entry-exports.ts) on purpose, and in the README.
export { InvalidListError, InvalidOptionError, TodoWriteListError } from './errors.js';
export { DEFAULT_LIMITS, type TaskListLimits } from './limits.js';
// The SDK-neutral shapes each entry's ToolConfig and ToolRegistrar extend: exported as types so
// that the declarations a user's compiler reads name them (a type with no public home is TS2742
// in a consumer's build).
export type { ToolConfigOf, ToolRegistrarOf } from './sdk-binding.js';
export {
  type ListStore,
  type ListStores,
  type ListTransaction,
  memoryListStore,
  type TodoToolState,
  type TodoWriteState,
} from './store/list-store.js';
export {
  isSnapshot,
  MAX_TASK_ID,
  memoryTaskStore,
  type TaskCatchUp,
  type TaskClaim,
  type TaskDelta,
  type TaskListSnapshot,
  type TaskRecord,
  type TaskStore,
  type TaskTransaction,
  type TaskWrite,
} from './store/task-store.js';
export { TaskToolsCore, type TaskToolsOptions } from './tasks/task-tools-core.js';
export { TODO_GUIDANCE, type TodoGuidance } from './todo/todo-guidance.js';
export { replayTodo } from './todo/todo-replay.js';
export { TodoToolCore, type TodoToolOptions } from './todo/todo-tool-core.js';
export type { TodoAction, TodoDetails, TodoResult } from './todo/todo-types.js';
export { TodoWriteToolCore, type TodoWriteToolOptions } from './todo-write/todo-write-tool-core.js';
export type { JsonSchema, ToolCallContext, ToolCallResult, ToolDefinition, ToolHints } from './tool-definition.js';
export type {
  TaskEvent,
  TaskItem,
  TaskListChange,
  TaskStatus,
  TodoSnapshot,
  TodoTask,
  TodoTaskStatus,
  TodoWriteItem,
  ToolAnswer,
} from './types.js';
