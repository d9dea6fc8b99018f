/**
 * What every group of the shared ask-tools suite is written with: the golden tools/list, Claude
 * Code 2.1.332's wordings, the helpers that read a result or wait on an event, and the `Suite`
 * each group is handed (the harness, its entry, two ways to connect).
 */
import { readFileSync } from 'node:fs';
import type { Connection, ElicitHandler, Harness, ListedTool, SuiteToolsOptions } from '../harness.js';

/** tools/list of the two tools as the `.` entry listed them before the v2 adapter existed. */
export const golden = JSON.parse(readFileSync(new URL('../tools-list.golden.json', import.meta.url), 'utf8')) as {
  structuredOutputOff: ListedTool[];
  structuredOutputOn: ListedTool[];
};

export const DECIDE = 'Decide for yourself, go on, and say in your reply what you assumed.';
export const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

// Claude Code 2.1.332's wordings, written out in full: a test must fail on any change of a character.
export const labelsOnly = (entries: string) =>
  `Your questions have been answered: ${entries}. You can now continue with these answers in mind.`;
export const ownWords = (entries: string) =>
  `The user answered: ${entries}. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`;

/**
 * A question of AskUserQuestion as a call sends it: `options` as `[label, description]` pairs, and
 * `multiSelect` only when given (left out, the tool takes it as false).
 */
export const formQuestion = (
  question: string,
  header: string,
  options: readonly (readonly [label: string, description: string])[],
  multiSelect?: boolean,
) => ({
  question,
  header,
  options: options.map(([label, description]) => ({ label, description })),
  ...(multiSelect === undefined ? {} : { multiSelect }),
});

/** Resolves once `condition` holds, polling on a short timer: tests wait on events, never on a clock. */
export const once = (condition: () => boolean) =>
  new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (!condition()) return;
      clearInterval(poll);
      resolve();
    }, 5);
  });

/** A schema without its `$schema`. */
const undeclared = (schema: unknown) => {
  const { $schema: _schema, ...rest } = schema as Record<string, unknown>;
  return rest;
};

/** A listing without what differs between the SDKs on purpose (the dialect and `execution`). */
export const withoutDifferences = (tools: ListedTool[]) =>
  tools.map(({ execution: _execution, ...tool }) => ({
    ...tool,
    inputSchema: undeclared(tool.inputSchema),
    ...(tool.outputSchema === undefined ? {} : { outputSchema: undeclared(tool.outputSchema) }),
  }));

/** What every part of the suite is given: the harness, its entry, and two ways to connect. */
export interface Suite<Server> {
  harness: Harness<Server>;
  entry: Harness<Server>['entry'];
  /**
   * ask_user and AskUserQuestion on a server of the harness, answered by the client's user
   * through elicitation (when `handler`; else the client declares none).
   */
  setup: (handler?: ElicitHandler, options?: SuiteToolsOptions) => Promise<Connection>;
  /** A server with tools mounted by `mount` alone, and a client that cannot elicit. */
  mounted: (mount: (server: Server) => void) => Promise<Connection>;
}
