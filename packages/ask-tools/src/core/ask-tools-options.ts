/**
 * The options of AskTools that both entries take (each entry's `AskToolsOptions` extends them),
 * and of its `registerAskUserQuestion`; with their defaults applied, they are the settings an
 * entry's SDK binding reads (`ask-tools-core.ts`).
 */
import type { Answerer } from './types.js';

/** The options of AskTools under both entries (each entry's `AskToolsOptions` extends them). */
export interface AskToolsCoreOptions {
  /** Asked on every call for the way to put the question to a person; without it every call is refused. */
  answerer?: Answerer;
  /** How long a question may wait for its answer; default 30 minutes. */
  timeoutMs?: number;
  /** How often to send progress while waiting, when the client gave a progress token; default 15 s. */
  progressIntervalMs?: number;
  /**
   * Declare output schemas and return `structuredContent` beside the text; default false. Off by
   * default because Claude Code shows the model the JSON of `structuredContent` instead of the
   * text whenever a result carries it, and the MCP spec requires structured results once an output
   * schema is declared: with it on, a model in Claude Code reads `{"answer":…}` in place of the
   * answer's sentence. Turn it on for clients that read structured results.
   */
  structuredOutput?: boolean;
}

/** Options of `registerAskUserQuestion`. */
export interface AskUserQuestionOptions {
  /** The tool's name; default `AskUserQuestion`. */
  name?: string;
}

/** The options of one AskTools with their defaults applied, as its SDK binding reads them. */
export interface AskSettings {
  readonly answerer: Answerer | undefined;
  readonly timeoutMs: number;
  readonly progressIntervalMs: number;
  readonly structuredOutput: boolean;
}
