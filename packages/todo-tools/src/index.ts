// The `.` entry: the tools on MCP SDK v1 (`@modelcontextprotocol/sdk`); `./v2` (v2/index.ts) is the
// same on SDK v2. Everything but TaskTools, TodoWriteTool, TodoTool and the registrar types is
// shared by both.
export { InvalidListError, InvalidOptionError, TodoWriteListError } from './errors.js';
export type { TaskListLimits } from './limits.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { ListStore, ListStores, ListTransaction, TodoToolState, TodoWriteState } from './store/list-store.js';
export { memoryListStore } from './store/list-store.js';
export type {
  TaskCatchUp,
  TaskClaim,
  TaskDelta,
  TaskListSnapshot,
  TaskRecord,
  TaskStore,
  TaskTransaction,
  TaskWrite,
} from './store/task-store.js';
export { isSnapshot, MAX_TASK_ID, memoryTaskStore } from './store/task-store.js';
export type { TaskToolsOptions } from './tasks/task-tools-core.js';
export { TaskToolsCore } from './tasks/task-tools-core.js';
export type { TodoGuidance } from './todo/todo-guidance.js';
export { TODO_GUIDANCE } from './todo/todo-guidance.js';
export { replayTodo } from './todo/todo-replay.js';
export { isImmutableTodoTasks } from './todo/todo-state.js';
export type { TodoToolOptions } from './todo/todo-tool-core.js';
export { TodoToolCore } from './todo/todo-tool-core.js';
export type { TodoAction, TodoDetails, TodoResult } from './todo/todo-types.js';
export type { TodoWriteToolOptions } from './todo-write/todo-write-tool-core.js';
export { TodoWriteToolCore } from './todo-write/todo-write-tool-core.js';
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
export { TaskTools } from './v1/task-tools.js';
export { TodoTool } from './v1/todo-tool.js';
export { TodoWriteTool } from './v1/todo-write-tool.js';
export type { ToolConfig, ToolExtra, ToolRegistrar } from './v1/tool-registrar.js';
