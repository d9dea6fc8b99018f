// What both entries export alike, written once: the `.` entry (src/index.ts) and the `./v2` entry
// (src/v2/index.ts) each re-export exactly this list (`export *`), beside what each exports for its
// own SDK. Same objects under both entries: an AskError from either is the same class.
// The base of each entry's AskTools and its options: exported as types so that the declarations a
// user's compiler reads name them (a type with no public home is TS2742 in a consumer's build).
export type { AskToolsCore } from './ask-tools-core.js';
export type { AskToolsCoreOptions, AskUserQuestionOptions } from './ask-tools-options.js';
export { DEFAULT_TIMEOUT_MS } from './asking.js';
export { AskError } from './errors.js';
export type { AskFailure } from './outcomes.js';
export { UNAVAILABLE } from './outcomes.js';
export type { Answerer, Asker, FormAsker, FormQuestion } from './types.js';
