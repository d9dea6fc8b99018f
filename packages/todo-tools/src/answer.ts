/**
 * What the task tools and todo_write answer: a text, an error flag, and for an MCP result the
 * structured content beside the text. Every rejection reads `Error: <what was wrong>`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { formatIssues } from './schema-fields.js';
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

/** The error answer for a store that failed: its own message says what and where. */
export function storeProblem(list: 'task' | 'todo', error: unknown): Answer {
  return rejected(
    `the ${list} list could not be read or saved: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** An answer as an MCP tool result: the text, and `structuredContent` unless it is an error. */
export function toResult(answer: Answer): CallToolResult {
  const content = [{ type: 'text' as const, text: answer.text }];
  if (answer.isError) return { content, isError: true };
  return { content, structuredContent: answer.structured ?? {} };
}
