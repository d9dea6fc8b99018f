/**
 * The public surface of the two SDK entries, written once for both barrel tests (index.barrel.test.ts
 * for `.`, v2/index.barrel.test.ts for `./v2`): the names each exports at run time, and the
 * declarations its built `.d.ts` exports, `'<kind> <Name>'` as `describeDeclaredExports` lists them.
 * Every one is a name the README documents; a new export fails both tests until it is added here on
 * purpose (and to the README). Test support only: not part of any entry.
 */

/** The names both entries export at run time: the SDK-neutral core's (core/sdk-neutral.ts) and each entry's own. */
export const ENTRY_NAMES: readonly string[] = [
  'AskError',
  'AskTools',
  'DEFAULT_TIMEOUT_MS',
  'UNAVAILABLE',
  'elicitationAnswerer',
  'registerAskUserQuestion',
];

/**
 * The declarations both entries export under the same name and kind: the SDK-neutral core's, and
 * each entry's own AskTools, registerAskUserQuestion, elicitationAnswerer, AskToolsOptions,
 * ToolRegistrar and ElicitingServer (the same names, bound to its SDK). What only one entry
 * declares is listed in its barrel test.
 */
export const ENTRY_DECLARATIONS: readonly string[] = [
  'class AskError',
  'class AskTools',
  'const DEFAULT_TIMEOUT_MS',
  'const UNAVAILABLE',
  'function elicitationAnswerer',
  'function registerAskUserQuestion',
  'class AskToolsCore',
  'interface AskToolsCoreOptions',
  'interface AskToolsOptions',
  'interface AskUserQuestionOptions',
  'interface FormQuestion',
  'type Answerer',
  'type AskFailure',
  'type Asker',
  'type ElicitingServer',
  'type FormAsker',
  'type ToolRegistrar',
];
