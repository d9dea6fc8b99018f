export type { AskFailure } from './core/outcomes.js';
export { UNAVAILABLE } from './core/outcomes.js';
export { AskError } from './core/errors.js';
export type { Answerer, Asker, FormAsker, FormQuestion } from './core/types.js';
export type { AskToolsOptions, AskUserQuestionOptions } from './v1/ask-tools.js';
export { AskTools, registerAskUserQuestion } from './v1/ask-tools.js';
export { DEFAULT_TIMEOUT_MS, elicitationAnswerer } from './v1/elicitation.js';
