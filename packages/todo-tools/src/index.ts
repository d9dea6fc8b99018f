// The `.` entry: the tools on MCP SDK v1 (`@modelcontextprotocol/sdk`); `./v2` (v2/index.ts) is the
// same on SDK v2. Everything but TaskTools, TodoWriteTool, TodoTool and the registrar types is the
// SDK-neutral core both entries share, listed name by name once in sdk-neutral.ts (decision 0010).
export * from './sdk-neutral.js';
export { TaskTools } from './v1/task-tools.js';
export { TodoTool } from './v1/todo-tool.js';
export { TodoWriteTool } from './v1/todo-write-tool.js';
export type { ToolConfig, ToolExtra, ToolRegistrar } from './v1/tool-registrar.js';
