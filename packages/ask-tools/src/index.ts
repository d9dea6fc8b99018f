// The `.` entry: the question tools mounted on the MCP TypeScript SDK v1 (@modelcontextprotocol/sdk).
// The same tools on a v2 McpServer are the `./v2` entry (src/v2/index.ts).
export { DEFAULT_TIMEOUT_MS } from './core/asking.js';
export { AskError } from './core/errors.js';
export type { AskFailure } from './core/outcomes.js';
export { UNAVAILABLE } from './core/outcomes.js';
export type { Answerer, Asker, FormAsker, FormQuestion } from './core/types.js';
export type { AskToolsOptions, AskUserQuestionOptions, ToolRegistrar } from './v1/ask-tools.js';
export { AskTools, registerAskUserQuestion } from './v1/ask-tools.js';
export type { ElicitingServer } from './v1/elicitation.js';
export { elicitationAnswerer } from './v1/elicitation.js';
