export type { TodoLimits } from './limits.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { TodoToolsOptions } from './todo-tools.js';
export { TodoTools } from './todo-tools.js';
export { TodoListError } from './todo-write.js';
export type { TaskEvent, TaskItem, TodoItem, TodoStatus, ToolAnswer } from './types.js';
