// The `./v2` entry (@raider/ask-tools/v2): the question tools of the `.` entry mounted on the MCP
// TypeScript SDK v2 (@modelcontextprotocol/server), asking 2026-era clients with input_required
// and 2025-era ones, through the SDK's shim, with elicitation/create. What both entries export
// alike is listed once, in core/sdk-neutral.ts; below it, what only this entry's SDK has.
export * from '../core/sdk-neutral.js';
export type { AskToolsOptions, ToolRegistrar } from './ask-tools.js';
export { AskTools, registerAskUserQuestion } from './ask-tools.js';
export type { QuestionState } from './client-question.js';
export type { ElicitingServer } from './elicitation.js';
export { elicitationAnswerer } from './elicitation.js';
