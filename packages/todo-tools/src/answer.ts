/**
 * What the task tools and todo_write answer: a text, an error flag, and for an MCP result the
 * structured content beside the text. Every rejection reads `Error: <what was wrong>`.
 */

import { formatIssues } from '@raider/kit/schemas';
import type { z } from 'zod';
import type { ToolCallResult } from './tool-definition.js';
import type { ToolAnswer } from './types.js';

/** An answer with the structured content the MCP tool returns beside the text. */
export interface Answer extends ToolAnswer {
  structured?: Record<string, unknown>;
  /** True when the call changed the list (onUpdate follows, a store writes). */
  changed?: boolean;
}

/** An error answer: `Error: <message>`. */
export function rejected(message: string): Answer {
  return { text: `Error: ${message}`, isError: true };
}

/** The error answer for arguments that failed their schema: `Error: field: expected …, received …`. */
export function invalid(error: z.ZodError): Answer {
  return rejected(formatIssues(error));
}

/**
 * True when a store's error says the change may have been committed after all (the connection
 * broke during COMMIT, a file was renamed in and could not be taken back): see `TaskStore`.
 */
export function mayHaveBeenSaved(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { mayHaveBeenSaved?: unknown }).mayHaveBeenSaved === true
  );
}

/**
 * What a store's failure means to the model, before the store's own message (which says what and
 * where): nothing was changed, or, when the store cannot tell, that the change may have been saved
 * (so a model reads the list before it retries, instead of making a duplicate).
 */
export function storeFailure(list: 'task' | 'todo' | undefined, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const which = list ? `${list} list` : 'list';
  return mayHaveBeenSaved(error)
    ? `the ${which} change may have been saved, or not: ${message}; read the list before trying again`
    : `the ${which} could not be read or saved: ${message}`;
}

/** The error answer for a store that failed: its own message says what and where. */
export function storeProblem(list: 'task' | 'todo', error: unknown): Answer {
  return rejected(storeFailure(list, error));
}

/**
 * An answer as a tool result (the same under every SDK): the text, and with `structured`
 * (structured output on) the `structuredContent` beside it unless it is an error. Without it the
 * model reads the text.
 */
export function toResult(answer: Answer, structured: boolean): ToolCallResult {
  const content: ToolCallResult['content'] = [{ type: 'text', text: answer.text }];
  if (answer.isError) return { content, isError: true };
  return structured ? { content, structuredContent: answer.structured ?? {} } : { content };
}
