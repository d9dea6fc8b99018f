/**
 * What the question tools answer with: text results both SDKs take as their `CallToolResult`.
 * Every outcome that is not an answer is an error result the model can act on.
 */

import { formatIssues } from '@raider/kit/schemas';
import type { z } from 'zod';
import { type AskFailure, failureText } from './outcomes.js';

/**
 * A tool result of text: the answer (with `structuredContent` beside it when structured output
 * is on) or an error result (`isError: true`, text only). A type, not an interface, so it is
 * assignable to either SDK's `CallToolResult`.
 */
export type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
};

/** The error result of an outcome that is not an answer. */
export function failure(code: AskFailure, detail?: string): ToolResult {
  return { content: [{ type: 'text', text: failureText(code, detail) }], isError: true };
}

/** The error result for arguments that failed their schema: `Error: field: expected …, received …`. */
export function invalid(error: z.ZodError): ToolResult {
  return { content: [{ type: 'text', text: `Error: ${formatIssues(error)}` }], isError: true };
}

/**
 * The result of an answer: its text alone, or with `structuredContent` when `structuredOutput`
 * is on (then the output schema is declared and the spec requires it on every non-error result).
 */
export function answered(text: string, structured: Record<string, unknown>, structuredOutput: boolean): ToolResult {
  const content: ToolResult['content'] = [{ type: 'text', text }];
  return structuredOutput ? { content, structuredContent: structured } : { content };
}
