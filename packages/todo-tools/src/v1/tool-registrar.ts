/**
 * The v1 adapter (`@modelcontextprotocol/sdk` 1.x): mounts SDK-neutral tool definitions on a v1
 * server. v1 takes zod schemas: each tool is registered with its advertised zod schemas (shown as
 * their JSON Schema, letting any object through, so the tool checks its own arguments).
 */
import type { z } from 'zod';
import type { ToolCallResult, ToolDefinition, ToolHints } from '../tool-definition.js';

/** How a tool is configured on a v1 server: what `mountTools` hands `registerTool`. */
export interface ToolConfig {
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  /** Only with structured output. */
  outputSchema?: z.ZodObject;
  annotations: ToolHints;
  /** Only with `alwaysLoad`. */
  _meta?: Record<string, unknown>;
}

/** What a v1 tool handler gets beside its arguments (a v1 `RequestHandlerExtra` is one). */
export interface ToolExtra {
  signal: AbortSignal;
}

/**
 * The part of a v1 server the register methods use: `registerTool`. A v1 `McpServer` is one, and
 * so is any object that forwards to one (to rename tools, wrap their handlers, …):
 *
 * ```ts
 * const renamed: ToolRegistrar = {
 *   registerTool: (name, config, handler) => server.registerTool(`raider_${name}`, config, handler),
 * };
 * ```
 */
export interface ToolRegistrar {
  registerTool(
    name: string,
    config: ToolConfig,
    handler: (args: Record<string, unknown>, extra: ToolExtra) => Promise<ToolCallResult>,
  ): unknown;
}

/** Registers each of `tools` on `server`, in order. */
export function mountTools(server: ToolRegistrar, tools: readonly ToolDefinition[]): void {
  for (const tool of tools) {
    // Fresh objects: what a server keeps may be changed there (a RegisteredTool's update), while
    // a definition is shared and frozen.
    const config: ToolConfig = {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      annotations: { ...tool.annotations },
      ...(tool._meta ? { _meta: { ...tool._meta } } : {}),
    };
    server.registerTool(tool.name, config, (args, extra) => tool.handler(args, { signal: extra.signal }));
  }
}
