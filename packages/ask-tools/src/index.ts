// The `.` entry: the question tools mounted on the MCP TypeScript SDK v1 (@modelcontextprotocol/sdk).
// The same tools on a v2 McpServer are the `./v2` entry (src/v2/index.ts). What both entries export
// alike is listed once, in core/sdk-neutral.ts; below it, what only this entry's SDK has.
export * from './core/sdk-neutral.js';
export type { AskToolsOptions, ToolRegistrar } from './v1/ask-tools.js';
export { AskTools, registerAskUserQuestion } from './v1/ask-tools.js';
export type { ElicitingServer } from './v1/elicitation.js';
export { elicitationAnswerer } from './v1/elicitation.js';
