/**
 * The shape every question tool has, whichever SDK mounts it: what clients are shown (name,
 * title, description, input and output schemas, annotations) and what the tool does with an
 * answer. The adapters (`../v1`, `../v2`) only decide how the question reaches a person.
 */
import { advertised, type SchemaDialect } from '@raider/kit/schemas';
import type { z } from 'zod';
import type { ElicitationForm } from './elicitation-form.js';
import type { ToolResult } from './tool-result.js';
import type { Asker } from './types.js';

/**
 * How every question tool is listed: not read-only, not destructive, not idempotent, not
 * open-world. Each hint is chosen, none left to the protocol's defaults:
 * - readOnlyHint false: a question waits for a person. Claude Code runs a read-only tool as
 *   concurrency-safe, alongside the model's other calls; a question must not be one of them.
 * - destructiveHint false: asking changes nothing and removes nothing (the hint's default, true,
 *   applies to a tool that is not read-only, so it is said).
 * - idempotentHint false: a second call puts the question to the person a second time. Claude Code
 *   2.1.332 retries an idempotent call once after a lost session; a person must not be asked twice.
 * - openWorldHint false: the question reaches only the person at this client's keyboard (or the
 *   surface the application gives), no outside service: the world of the call stays closed.
 */
export const ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** The outcome of checking a call's arguments: the tool's input, or the error result to answer with. */
export type Parsed<Input> = { success: true; input: Input } | { success: false; result: ToolResult };

/**
 * A question tool, SDK-neutral. `Input` is what a call asks, `Answer` what comes back from the
 * person (one text for ask_user, one per question for AskUserQuestion).
 */
export interface QuestionTool<Input, Answer> {
  /** The default name the tool is listed under. */
  name: string;
  title: string;
  description: string;
  /** The schema clients are shown and the tool checks its arguments with (strict). */
  schema: z.ZodObject;
  /** The shape of `structuredContent`, declared as the output schema when structured output is on. */
  output: z.ZodRawShape;
  /** Checks a call's arguments with `schema`. */
  parse(args: unknown): Parsed<Input>;
  /** Puts the question to an asker while the call waits (an answerer's way to reach a person). */
  ask(asker: Asker, input: Input, signal: AbortSignal): Promise<Answer>;
  /** The one form that asks everything the call asks, for elicitation. */
  form(input: Input): ElicitationForm;
  /** The answer in the fields of an accepted form. */
  read(input: Input, content: Record<string, unknown>): Answer;
  /** The result for an answer. */
  result(input: Input, answer: Answer, structuredOutput: boolean): ToolResult;
}

/** What clients are shown of `tool` (but its output schema, which each SDK takes its own way), in `dialect`. */
export function listing<Input, Answer>(tool: QuestionTool<Input, Answer>, dialect: SchemaDialect) {
  return {
    title: tool.title,
    description: tool.description,
    inputSchema: advertised(tool.schema, dialect),
    annotations: ANNOTATIONS,
  };
}
