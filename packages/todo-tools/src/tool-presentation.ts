/**
 * How the tools present themselves and their results to a client. Claude Code shows its model the
 * JSON of a result's `structuredContent` instead of the result's text whenever it is there, so by
 * default the tools return text only (the answers of Claude Code and rpiv-todo, which is what a
 * model is trained on) and declare no output schema (the MCP specification requires structured
 * content from a tool that declares one). A client that wants data turns structured output on.
 */
import type { z } from 'zod';
import type { ToolDefinition, ToolHints } from './tool-definition.js';
import { jsonSchemaOf } from './tool-input.js';

/** The presentation options every family takes (TaskTools, TodoWriteTool, TodoTool). */
export interface ToolPresentation {
  /**
   * Results carry `structuredContent` and the tools declare their `outputSchema` (default false:
   * the model reads the text, as in Claude Code; the `todo` tool's snapshot stays in `call()`'s
   * `details` and wherever a store or resource keeps it).
   */
  structuredOutput: boolean;
  /**
   * The tools carry `_meta["anthropic/alwaysLoad"]: true`, so Claude Code loads them with the
   * conversation instead of deferring them behind ToolSearch (default false).
   */
  alwaysLoad: boolean;
}

/** `options`' presentation choices, the defaults for what they leave out. */
export function presentationOf(options: Partial<ToolPresentation>): ToolPresentation {
  return {
    structuredOutput: options.structuredOutput === true,
    alwaysLoad: options.alwaysLoad === true,
  };
}

/** A tool before presentation: both schemas advertised (see tool-input.ts), the handler answering as presented. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  annotations: ToolHints;
  handler: ToolDefinition['handler'];
}

/**
 * A tool's definition as `presentation` wants it: its output schema only with structured output,
 * and Claude Code's always-load mark when asked for. Frozen.
 */
export function presented(spec: ToolSpec, presentation: ToolPresentation): ToolDefinition {
  const { outputSchema, ...rest } = spec;
  const output = presentation.structuredOutput
    ? { outputSchema, outputJsonSchema: jsonSchemaOf(outputSchema, 'output') }
    : {};
  const meta = presentation.alwaysLoad ? { _meta: Object.freeze({ 'anthropic/alwaysLoad': true }) } : {};
  return Object.freeze({
    ...rest,
    inputJsonSchema: jsonSchemaOf(spec.inputSchema, 'input'),
    ...output,
    annotations: Object.freeze({ ...spec.annotations }),
    ...meta,
  });
}
