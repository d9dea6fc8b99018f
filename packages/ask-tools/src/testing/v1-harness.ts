/**
 * The `.` entry on the MCP TypeScript SDK v1: a v1 McpServer and a v1 Client over the SDK's
 * InMemoryTransport, in the 2025 era (the only one v1 speaks); the client's user answers
 * through `elicitation/create`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AskTools, elicitationAnswerer, registerAskUserQuestion } from '../index.js';
import type { CallOptions, Connection, ElicitHandler, ElicitParams, Harness, ListedTool } from './harness.js';

/**
 * A v1 Client on one end of `transport`, eliciting through `handler` when given. Also the client
 * of the v2 server's harness for 2025-era v1 clients.
 */
export async function v1Client(
  connectServer: () => Promise<void>,
  transport: InMemoryTransport,
  handler: ElicitHandler | undefined,
  clients: Client[],
): Promise<Connection> {
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    handler ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const requests: ElicitParams[] = [];
  if (handler) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const params = request.params as ElicitParams;
      requests.push(params);
      return handler(params, extra.signal);
    });
  }
  await Promise.all([connectServer(), client.connect(transport)]);
  clients.push(client);
  return {
    call: (name: string, args: unknown, options: CallOptions = {}) =>
      client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onprogress ? { onprogress: (p: { progress: number }) => options.onprogress?.(p.progress) } : {}),
      }),
    listTools: async () => (await client.listTools()).tools as ListedTool[],
    requests,
  };
}

/** The `.` entry, v1 server and v1 client. */
export function v1Harness(): Harness<McpServer> {
  const clients: Client[] = [];
  return {
    name: 'v1 server + v1 client (2025-11-25)',
    entry: { AskTools, registerAskUserQuestion, clientAnswerer: (server) => elicitationAnswerer(server) },
    newServer: () => new McpServer({ name: 'test-server', version: '1.0.0' }),
    async connect(serve, handler) {
      const server = serve();
      const [a, b] = InMemoryTransport.createLinkedPair();
      return v1Client(() => server.connect(a), b, handler, clients);
    },
    closeAll: async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    },
    differences: {
      unknownTool: { rejects: false, text: 'MCP error -32602: Tool nope not found' },
      dialect: 'http://json-schema.org/draft-07/schema#',
      execution: { taskSupport: 'forbidden' },
      serverProgressWhileAsking: true,
    },
  };
}
