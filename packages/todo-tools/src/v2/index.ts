// The `./v2` entry: the tools on MCP SDK v2 (`@modelcontextprotocol/server`), with the same names,
// options, direct API and answers as the `.` entry (index.ts, on SDK v1). Only TodoTools, TodoTool
// and the registrar types are its own; the rest is the same code as the `.` entry's.
export { InvalidListError, InvalidOptionError, TodoListError } from '../errors.js';
export type { TodoLimits } from '../limits.js';
export { DEFAULT_LIMITS } from '../limits.js';
export type { ListStore, ListStores, TodoFamilyState, TodoWriteState, Transaction } from '../store/list-store.js';
export { memoryStore } from '../store/list-store.js';
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
export type { TodoGuidance } from '../todo/todo-guidance.js';
export { TODO_GUIDANCE } from '../todo/todo-guidance.js';
export { replay } from '../todo/todo-replay.js';
export { isImmutableTasks } from '../todo/todo-state.js';
export type { TodoToolOptions } from '../todo/todo-tool-core.js';
export { TodoToolCore } from '../todo/todo-tool-core.js';
export type {
  TodoAction,
  TodoDetails,
  TodoResult,
  TodoSnapshot,
  TodoTask,
  TodoTaskStatus,
} from '../todo/todo-types.js';
export type { TodoToolsOptions } from '../todo-tools-core.js';
export { TodoToolsCore } from '../todo-tools-core.js';
export type { JsonSchema, ToolCallContext, ToolCallResult, ToolDefinition, ToolHints } from '../tool-definition.js';
export type { TaskEvent, TaskItem, TaskListChange, TodoItem, TodoStatus, ToolAnswer } from '../types.js';
export type { AdvertisedSchema } from './advertised-schema.js';
export { TodoTool } from './todo-tool.js';
export { TodoTools } from './todo-tools.js';
export type { ToolConfig, ToolContext, ToolRegistrar } from './tool-registrar.js';
