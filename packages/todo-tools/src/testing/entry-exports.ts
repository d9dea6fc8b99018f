/**
 * The public surface of the two SDK entries, written once for both barrel tests (index.barrel.test.ts
 * for `.`, v2/index.barrel.test.ts for `./v2`): the names each exports at run time, and the
 * declarations its built `.d.ts` exports, `'<kind> <Name>'` as `describeDeclaredExports` lists them.
 * Every one is a name the README documents; a new export fails both tests until it is added here on
 * purpose (and to the README). Test support only: not part of any entry.
 */

/** The names both entries export at run time: the SDK-neutral core (sdk-neutral.ts) and the three tool classes. */
export const ENTRY_NAMES: readonly string[] = [
  'DEFAULT_LIMITS',
  'InvalidListError',
  'InvalidOptionError',
  'MAX_TASK_ID',
  'TODO_GUIDANCE',
  'TaskTools',
  'TaskToolsCore',
  'TodoTool',
  'TodoToolCore',
  'TodoWriteListError',
  'TodoWriteTool',
  'TodoWriteToolCore',
  'isSnapshot',
  'memoryListStore',
  'memoryTaskStore',
  'replayTodo',
];

/**
 * The declarations both entries export under the same name and kind: the SDK-neutral core's, and
 * each entry's own TaskTools, TodoWriteTool, TodoTool, ToolConfig and ToolRegistrar (the same names,
 * bound to its SDK). What only one entry declares is listed in its barrel test.
 */
export const ENTRY_DECLARATIONS: readonly string[] = [
  'class InvalidListError',
  'class InvalidOptionError',
  'class TaskTools',
  'class TaskToolsCore',
  'class TodoTool',
  'class TodoToolCore',
  'class TodoWriteListError',
  'class TodoWriteTool',
  'class TodoWriteToolCore',
  'const DEFAULT_LIMITS',
  'const MAX_TASK_ID',
  'const TODO_GUIDANCE',
  'function isSnapshot',
  'function memoryListStore',
  'function memoryTaskStore',
  'function replayTodo',
  'interface ListStore',
  'interface ListStores',
  'interface ListTransaction',
  'interface TaskClaim',
  'interface TaskDelta',
  'interface TaskItem',
  'interface TaskListChange',
  'interface TaskListLimits',
  'interface TaskListSnapshot',
  'interface TaskRecord',
  'interface TaskStore',
  'interface TaskToolsOptions',
  'interface TaskTransaction',
  'interface TaskWrite',
  'interface TodoDetails',
  'interface TodoGuidance',
  'interface TodoResult',
  'interface TodoSnapshot',
  'interface TodoTask',
  'interface TodoToolOptions',
  'interface TodoWriteItem',
  'interface TodoWriteState',
  'interface TodoWriteToolOptions',
  'interface ToolAnswer',
  'interface ToolCallContext',
  'interface ToolConfig',
  'interface ToolConfigOf',
  'interface ToolDefinition',
  'interface ToolHints',
  'interface ToolRegistrar',
  'interface ToolRegistrarOf',
  'type JsonSchema',
  'type TaskCatchUp',
  'type TaskEvent',
  'type TaskStatus',
  'type TodoAction',
  'type TodoTaskStatus',
  'type TodoToolState',
  'type ToolCallResult',
];
