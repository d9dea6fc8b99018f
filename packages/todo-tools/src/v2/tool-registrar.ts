/**
 * The v2 adapter (`@modelcontextprotocol/server` 2.x): binds the SDK-neutral tool definitions to a
 * v2 server (sdk-binding.ts). Each tool is registered with schemas that show the advertised JSON
 * Schema and let any arguments through (see advertised-schema.ts), so the tool checks its own
 * arguments as under v1, and a handler finds the call's signal in its `ctx.mcpReq` and the host's
 * authentication of its caller in its `ctx.http`.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { bindSdk, type ToolConfigOf, type ToolRegistrarOf } from '../sdk-binding.js';
import { type AdvertisedSchema, advertisedSchema } from './advertised-schema.js';

/** How a tool is configured on a v2 server (with Standard Schemas): what `mountTools` hands `registerTool`. */
export interface ToolConfig extends ToolConfigOf<AdvertisedSchema> {}

/** What a v2 tool handler gets beside its arguments (the part of a v2 `ServerContext` the tools read). */
export interface ToolContext {
  mcpReq: { signal: AbortSignal };
  /** The host's authentication of the call (an HTTP transport's AuthInfo): its `clientId` is the caller. */
  http?: { authInfo?: { clientId?: string } };
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
export interface ToolRegistrar extends ToolRegistrarOf<ToolConfig, ToolContext> {}

/** SDK v2 as the `./v2` entry's TaskTools, TodoWriteTool and TodoTool use it: their servers and register methods. */
export const V2 = bindSdk({
  newServer: (info, options) => new McpServer(info, options),
  schemas: (tool) => ({
    inputSchema: advertisedSchema(tool.inputJsonSchema),
    ...(tool.outputJsonSchema ? { outputSchema: advertisedSchema(tool.outputJsonSchema) } : {}),
  }),
  signal: (ctx: ToolContext) => ctx.mcpReq.signal,
  caller: (ctx: ToolContext) => ctx.http?.authInfo?.clientId,
});
