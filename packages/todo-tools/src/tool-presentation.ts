/**
 * How the tools present themselves and their results to a client. Claude Code shows its model the
 * JSON of a result's `structuredContent` instead of the result's text whenever it is there, so by
 * default the tools return text only (the answers of Claude Code and rpiv-todo, which is what a
 * model is trained on) and declare no output schema (the MCP specification requires structured
 * content from a tool that declares one). A client that wants data turns structured output on.
 */

/** The presentation options every family takes (TodoTools, TodoTool). */
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

/**
 * A tool's registration config as `presentation` wants it: its output schema only with
 * structured output, and Claude Code's always-load mark when asked for.
 */
export function presented<C extends { outputSchema?: unknown; _meta?: Record<string, unknown> }>(
  config: C,
  presentation: ToolPresentation,
): C {
  const { outputSchema, ...rest } = config;
  const shown = (presentation.structuredOutput ? { ...rest, outputSchema } : rest) as C;
  if (presentation.alwaysLoad) shown._meta = { ...config._meta, 'anthropic/alwaysLoad': true };
  return shown;
}
