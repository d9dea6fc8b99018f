/**
 * The v2 adapter (`@modelcontextprotocol/server` 2.x): mounts SDK-neutral tool definitions on a v2
 * server, each with schemas that show the advertised JSON Schema and let any arguments through
 * (see advertised-schema.ts), so the tool checks its own arguments as under v1.
 */
import type { ToolCallResult, ToolDefinition, ToolHints } from '../tool-definition.js';
import { type AdvertisedSchema, advertisedSchema } from './advertised-schema.js';

/** How a tool is configured on a v2 server: what `mountTools` hands `registerTool`. */
export interface ToolConfig {
  title: string;
  description: string;
  inputSchema: AdvertisedSchema;
  /** Only with structured output. */
  outputSchema?: AdvertisedSchema;
  annotations: ToolHints;
  /** Only with `alwaysLoad`. */
  _meta?: Record<string, unknown>;
}

/** What a v2 tool handler gets beside its arguments (the part of a v2 `ServerContext` the tools read). */
export interface ToolContext {
  mcpReq: { signal: AbortSignal };
}

/**
 * The part of a v2 server the register methods use: `registerTool`. A v2 `McpServer` is one, and
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
    handler: (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolCallResult>,
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
      inputSchema: advertisedSchema(tool.inputJsonSchema),
      ...(tool.outputJsonSchema ? { outputSchema: advertisedSchema(tool.outputJsonSchema) } : {}),
      annotations: { ...tool.annotations },
      ...(tool._meta ? { _meta: { ...tool._meta } } : {}),
    };
    server.registerTool(tool.name, config, (args, ctx) => tool.handler(args, { signal: ctx.mcpReq.signal }));
  }
}
