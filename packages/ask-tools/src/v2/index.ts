// The `./v2` entry (@raider/ask-tools/v2): the question tools of the `.` entry mounted on the MCP
// TypeScript SDK v2 (@modelcontextprotocol/server), asking 2026-era clients with input_required
// and 2025-era ones, through the SDK's shim, with elicitation/create.
export { DEFAULT_TIMEOUT_MS } from '../core/asking.js';
export { AskError } from '../core/errors.js';
export type { AskFailure } from '../core/outcomes.js';
export { UNAVAILABLE } from '../core/outcomes.js';
export type { Answerer, Asker, FormAsker, FormQuestion } from '../core/types.js';
export type { AskToolsOptions, AskUserQuestionOptions, ToolRegistrar } from './ask-tools.js';
export { AskTools, registerAskUserQuestion } from './ask-tools.js';
export type { QuestionState } from './client-question.js';
export type { ElicitingServer } from './elicitation.js';
export { elicitationAnswerer } from './elicitation.js';
