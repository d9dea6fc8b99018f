/**
 * What each server of a conversation is made of, besides what the conversation shares: the
 * McpServer itself, the registrar that gives the list tools progress, the 2026-era question tool
 * recorded once, and when the board app is offered.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { McpServer, type RegisteredTool, type ServerContext } from '@modelcontextprotocol/server';
import type { ToolCallResult, ToolConfig, ToolContext, ToolRegistrar } from '@raider/todo-tools/v2';
import { offerOnAnnouncement, rendersApps } from '../board/board-app.js';
import type { Family, Names } from '../types.js';
import { VERSION } from '../version.js';
import { instructions } from './instructions.js';
import { withProgress } from './progress.js';
import { askingAgent, type Questions } from './questions.js';

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
 * (a lock another process holds, a slow hook) sends progress. `listTools` keeps the list tools, to
 * link them to the board app when the client renders apps.
 */
export function progressRegistrar(
  server: McpServer,
  progressEveryMs: number | undefined,
): { registrar: ToolRegistrar; listTools: RegisteredTool[] } {
  const listTools: RegisteredTool[] = [];
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
      if (name === 'task_list' || name === 'todo' || name === 'TaskList') listTools.push(tool);
      return tool;
    },
  };
  return { registrar, listTools };
}

type RecordedTool = [string, object, (args: unknown, ctx: ServerContext) => unknown];

/**
 * The question tool as a 2026-era server registers it. Such a server is made per request over
 * HTTP, and mounting the question tool was most of its making (AskTools turns the tool's input
 * schema into JSON Schema at every mount). What it registers is the same for every 2026-era server
 * (its answerer reads the call's envelope), so it is recorded once and registered on each. The one
 * thing it reads of its server, the client's capabilities (when the envelope has none), it reads of
 * the server serving the call.
 */
export class ModernQuestionTool {
  private recorded: { tools: RecordedTool[]; servedBy: AsyncLocalStorage<McpServer> } | undefined;

  constructor(private readonly questions: Pick<Questions, 'register'>) {}

  /** Registers the question tool on `server`, its calls asked for `asking`. */
  registerOn(server: McpServer, asking: string | undefined): void {
    const { tools, servedBy } = this.record();
    for (const [name, config, handler] of tools) {
      server.registerTool(
        name,
        config as never,
        ((args: unknown, ctx: ServerContext) =>
          servedBy.run(server, () => askingAgent.run(asking, () => handler(args, ctx)))) as never,
      );
    }
  }

  private record() {
    if (this.recorded) return this.recorded;
    const tools: RecordedTool[] = [];
    const servedBy = new AsyncLocalStorage<McpServer>();
    const recorder = {
      server: {
        getClientCapabilities: () => servedBy.getStore()?.server.getClientCapabilities(),
        getClientVersion: () => servedBy.getStore()?.server.getClientVersion(),
      },
      registerTool: (name: string, config: object, handler: RecordedTool[2]) => {
        tools.push([name, config, handler]);
      },
    };
    this.questions.register(recorder as unknown as McpServer, 'modern');
    this.recorded = { tools, servedBy };
    return this.recorded;
  }
}

/**
 * Calls `offer` once `server`'s client is known to render MCP Apps (the others see today's tools,
 * and pay nothing for it: its tools are registered only then). 2025 era: at initialize. 2026 era:
 * in a request's envelope; a server made for one request knows at once, one pinned to a
 * connection offers it from the first request that announces it.
 */
export function whenAppsRendered(
  server: McpServer,
  era: 'legacy' | 'modern',
  request: { clientCapabilities?: unknown } | undefined,
  offer: () => void,
): void {
  if (era === 'legacy') {
    server.server.oninitialized = () => {
      if (rendersApps(server.server.getClientCapabilities())) offer();
    };
  } else if (request === undefined) offerOnAnnouncement(server, offer);
  else if (rendersApps(request.clientCapabilities)) offer();
}
