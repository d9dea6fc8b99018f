/**
 * The question tool as a 2026-era server registers it. Such a server is made per request over
 * HTTP, and mounting the question tool was most of its making (AskTools turns the tool's input
 * schema into JSON Schema at every mount). What it registers is the same for every 2026-era server
 * (its answerer reads the call's envelope), so it is recorded once and registered on each. The one
 * thing it reads of its server, the client's capabilities (when the envelope has none), it reads of
 * the server serving the call.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { askingAgent, type Questions } from './questions.js';

type RecordedTool = [string, object, (args: unknown, ctx: ServerContext) => unknown];

/** The 2026-era question tool, recorded once: see the module's comment. */
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
