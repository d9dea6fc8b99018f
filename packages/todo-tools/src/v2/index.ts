// The `./v2` entry: the tools on MCP SDK v2 (`@modelcontextprotocol/server`), with the same names,
// options, direct API and answers as the `.` entry (index.ts, on SDK v1). Only TaskTools,
// TodoWriteTool, TodoTool and the registrar types are its own; the rest is the same code as the
// `.` entry's, listed name by name once in sdk-neutral.ts (decision 0010).
export * from '../sdk-neutral.js';
export type { AdvertisedSchema } from './advertised-schema.js';
export { TaskTools } from './task-tools.js';
export { TodoTool } from './todo-tool.js';
export { TodoWriteTool } from './todo-write-tool.js';
export type { ToolConfig, ToolContext, ToolRegistrar } from './tool-registrar.js';
