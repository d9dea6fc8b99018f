// What both entries export alike, written once: the `.` entry (src/index.ts) and the `./v2` entry
// (src/v2/index.ts) each re-export exactly this list (`export *`), beside what each exports for its
// own SDK. Same objects under both entries: an AskError from either is the same class.
export type { AskUserQuestionOptions } from './ask-tools-options.js';
export { DEFAULT_TIMEOUT_MS } from './asking.js';
export { AskError } from './errors.js';
export type { AskFailure } from './outcomes.js';
export { UNAVAILABLE } from './outcomes.js';
export type { Answerer, Asker, FormAsker, FormQuestion } from './types.js';
