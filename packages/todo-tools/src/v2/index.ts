// The `./v2` entry: the tools on MCP SDK v2 (`@modelcontextprotocol/server`), with the same names,
// options, direct API and answers as the `.` entry (index.ts, on SDK v1). Only TaskTools,
// TodoWriteTool, TodoTool and the registrar types are its own; the rest is the same code as the
// `.` entry's.
export { InvalidListError, InvalidOptionError, TodoWriteListError } from '../errors.js';
export type { TaskListLimits } from '../limits.js';
export { DEFAULT_LIMITS } from '../limits.js';
export type { ListStore, ListStores, ListTransaction, TodoToolState, TodoWriteState } from '../store/list-store.js';
export { memoryListStore } from '../store/list-store.js';
export type {
  TaskCatchUp,
  TaskClaim,
  TaskDelta,
  TaskListSnapshot,
  TaskRecord,
  TaskStore,
  TaskTransaction,
  TaskWrite,
} from '../store/task-store.js';
export { isSnapshot, MAX_TASK_ID, memoryTaskStore } from '../store/task-store.js';
export type { TaskToolsOptions } from '../tasks/task-tools-core.js';
export { TaskToolsCore } from '../tasks/task-tools-core.js';
export type { TodoGuidance } from '../todo/todo-guidance.js';
export { TODO_GUIDANCE } from '../todo/todo-guidance.js';
export { replayTodo } from '../todo/todo-replay.js';
export { isImmutableTodoTasks } from '../todo/todo-state.js';
export type { TodoToolOptions } from '../todo/todo-tool-core.js';
export { TodoToolCore } from '../todo/todo-tool-core.js';
export type { TodoAction, TodoDetails, TodoResult } from '../todo/todo-types.js';
export type { TodoWriteToolOptions } from '../todo-write/todo-write-tool-core.js';
export { TodoWriteToolCore } from '../todo-write/todo-write-tool-core.js';
export type { JsonSchema, ToolCallContext, ToolCallResult, ToolDefinition, ToolHints } from '../tool-definition.js';
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
} from '../types.js';
export type { AdvertisedSchema } from './advertised-schema.js';
export { TaskTools } from './task-tools.js';
export { TodoTool } from './todo-tool.js';
export { TodoWriteTool } from './todo-write-tool.js';
export type { ToolConfig, ToolContext, ToolRegistrar } from './tool-registrar.js';
