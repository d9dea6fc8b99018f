export type { AskToolsOptions, AskUserQuestionOptions } from './ask-tools.js';
export { AskTools, registerAskUserQuestion } from './ask-tools.js';
export { DEFAULT_TIMEOUT_MS, elicitationAnswerer } from './elicitation.js';
export { AskError } from './errors.js';
export type { AskFailure } from './outcomes.js';
export { UNAVAILABLE } from './outcomes.js';
export type { Answerer, Asker, FormAsker, FormQuestion } from './types.js';
