/**
 * What each server of a conversation is made of, besides what the conversation shares: the
 * McpServer itself, and the registrar that gives the family's tools progress.
 */
import { McpServer, type RegisteredTool, type ServerContext } from '@modelcontextprotocol/server';
import type { ToolCallResult, ToolConfig, ToolContext, ToolRegistrar } from '@raider/todo-tools/v2';
import type { Family, Names } from '../types.js';
import { VERSION } from '../version.js';
import { instructions } from './instructions.js';
import { withProgress } from './progress.js';

/** A fresh McpServer of the conversation, with its instructions and capabilities. */
export function openServer(options: { family: Family; names: Names; askTimeoutMs: number }): McpServer {
  return new McpServer(
    { name: 'raider-server', version: VERSION },
    {
      capabilities: { resources: { subscribe: true, listChanged: true } },
      instructions: instructions(options.family, options.names),
      // Offering the board app registers three tools and a resource and links the list tools, each
      // of which the SDK announces: a client that renders apps got four or five tools/list_changed
      // before it had listed anything. Those sent in one tick go out as one.
      debouncedNotificationMethods: ['notifications/tools/list_changed', 'notifications/resources/list_changed'],
      // The SDK's shim asks a 2025-era client for an input_required round as long as a question may wait.
      inputRequired: { roundTimeoutMs: options.askTimeoutMs },
    },
  );
}

/**
 * The registrar the family mounts its tools with on `server`: a call still running after a while
 * (a lock another process holds, a slow hook) sends progress. `registered` keeps each tool by the
 * name it was registered under (the board app links the list tools when the client renders apps).
 */
export function progressRegistrar(
  server: McpServer,
  progressEveryMs: number | undefined,
): { registrar: ToolRegistrar; registered: Map<string, RegisteredTool> } {
  const registered = new Map<string, RegisteredTool>();
  const registrar: ToolRegistrar = {
    registerTool: (
      name: string,
      config: ToolConfig,
      handler: (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolCallResult>,
    ) => {
      const tool = server.registerTool(
        name,
        config,
        withProgress(
          (args: unknown, ctx: ServerContext) => handler(args as Record<string, unknown>, ctx),
          progressEveryMs,
        ),
      );
      registered.set(name, tool);
      return tool;
    },
  };
  return { registrar, registered };
}
