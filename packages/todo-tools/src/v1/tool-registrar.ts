/**
 * The v1 adapter (`@modelcontextprotocol/sdk` 1.x): binds the SDK-neutral tool definitions to a v1
 * server (sdk-binding.ts). v1 takes zod schemas: each tool is registered with its advertised zod
 * schemas (shown as their JSON Schema, letting any object through, so the tool checks its own
 * arguments), and a handler finds the call's signal and the host's authentication of its caller in
 * its `extra`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import { bindSdk, type ToolConfigOf, type ToolRegistrarOf } from '../sdk-binding.js';

/** How a tool is configured on a v1 server (with zod schemas): what `mountTools` hands `registerTool`. */
export interface ToolConfig extends ToolConfigOf<z.ZodObject> {}

/** What a v1 tool handler gets beside its arguments (a v1 `RequestHandlerExtra` is one). */
export interface ToolExtra {
  signal: AbortSignal;
  /** The host's authentication of the call (a transport's AuthInfo): its `clientId` is the caller. */
  authInfo?: { clientId?: string };
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
export interface ToolRegistrar extends ToolRegistrarOf<ToolConfig, ToolExtra> {}

/** SDK v1 as the `.` entry's TaskTools, TodoWriteTool and TodoTool use it: their servers and register methods. */
export const V1 = bindSdk({
  newServer: (info, options) => new McpServer(info, options),
  schemas: (tool) => ({
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  }),
  signal: (extra: ToolExtra) => extra.signal,
  caller: (extra: ToolExtra) => extra.authInfo?.clientId,
});
