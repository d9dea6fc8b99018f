/**
 * The `./v2` entry on the MCP TypeScript SDK v2, in both protocol eras:
 * - 2026-07-28: servers made per request by `createMcpHandler`, driven in-process through its
 *   fetch function by a v2 Client that negotiates the era (`server/discover`); the question goes
 *   out as `input_required` and the client's driver answers it with its elicitation handler;
 * - 2025-11-25: a v2 McpServer over the SDK's InMemoryTransport, with a v1 Client or a v2 Client
 *   left on the legacy era; the SDK's shim turns `input_required` into a real `elicitation/create`.
 */

import { Client, type ElicitResult, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpHandler, InMemoryTransport, McpServer, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { AskTools, registerAskUserQuestion } from '../v2/index.js';
import type {
  CallOptions,
  Connection,
  Differences,
  ElicitHandler,
  ElicitParams,
  Harness,
  ListedTool,
} from './harness.js';
import { v1Client } from './v1-harness.js';

const entry = { AskTools, registerAskUserQuestion, clientAnswerer: () => undefined };
const newServer = () => new McpServer({ name: 'test-server', version: '1.0.0' });

/** What the v2 server differs in for every client and era. */
const V2_SERVER = {
  unknownTool: { rejects: true, message: 'Tool nope not found' },
  dialect: 'https://json-schema.org/draft/2020-12/schema',
  execution: undefined,
} satisfies Partial<Differences>;

/** A result without the server identity every 2026-era result carries in `_meta`. */
function withoutServerInfo(result: unknown): unknown {
  const { _meta, ...rest } = result as { _meta?: Record<string, unknown> };
  if (!_meta) return result;
  const { [SERVER_INFO_META_KEY]: _serverInfo, ...meta } = _meta;
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

/** A v2 Client eliciting through `handler` when given, and the connection the suite uses; not yet connected. */
export function v2Client(handler: ElicitHandler | undefined, options: ConstructorParameters<typeof Client>[1] = {}) {
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    { ...options, capabilities: handler ? { elicitation: { form: {} } } : {} },
  );
  const requests: ElicitParams[] = [];
  if (handler) {
    client.setRequestHandler('elicitation/create', async (request, ctx) => {
      const params = request.params as ElicitParams;
      requests.push(params);
      return (await handler(params, ctx.mcpReq.signal)) as ElicitResult;
    });
  }
  const connection: Connection = {
    call: async (name: string, args: unknown, callOptions: CallOptions = {}) =>
      withoutServerInfo(
        await client.callTool(
          { name, arguments: args as Record<string, unknown> },
          {
            ...(callOptions.signal ? { signal: callOptions.signal } : {}),
            ...(callOptions.onprogress ? { onprogress: (p) => callOptions.onprogress?.(p.progress) } : {}),
          },
        ),
      ),
    listTools: async () => (await client.listTools()).tools as ListedTool[],
    requests,
  };
  return { client, connection };
}

/** The 2026 era: `createMcpHandler` in-process, a v2 Client that negotiates 2026-07-28. */
export function v2ModernHarness(): Harness<McpServer> {
  const open: { close(): Promise<unknown> }[] = [];
  return {
    name: 'v2 server + v2 client (2026-07-28, input_required)',
    entry,
    newServer,
    async connect(serve, handler) {
      const mcp = createMcpHandler(() => serve());
      const transport = new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
        // Never dialled: the handler serves each request in-process.
        fetch: (url, init) => mcp.fetch(new Request(url, init)),
      });
      const { client, connection } = v2Client(handler, { versionNegotiation: { mode: 'auto' } });
      await client.connect(transport);
      if (client.getProtocolEra() !== 'modern') throw new Error('the client did not negotiate the 2026 era');
      open.push(client, mcp);
      return connection;
    },
    closeAll: async () => {
      await Promise.all(open.splice(0).map((o) => o.close()));
    },
    differences: { ...V2_SERVER, serverProgressWhileAsking: false },
  };
}

/** The 2025 era on a v2 server: a v2 McpServer over InMemoryTransport, and a v1 or v2 client. */
export function v2LegacyHarness(clientSdk: 'v1' | 'v2'): Harness<McpServer> {
  const clients: { close(): Promise<void> }[] = [];
  return {
    name: `v2 server + ${clientSdk} client (2025-11-25, shim)`,
    entry,
    newServer,
    async connect(serve, handler) {
      const server = serve();
      // Both halves of a linked pair come from one package, the server's.
      const [a, b] = InMemoryTransport.createLinkedPair();
      if (clientSdk === 'v1') {
        // The v1 Client takes the v2 transport as its own: both speak the one wire format.
        return v1Client(() => server.connect(a), b as unknown as V1InMemoryTransport, handler, clients as V1Client[]);
      }
      const { client, connection } = v2Client(handler);
      await Promise.all([server.connect(a), client.connect(b)]);
      if (client.getProtocolEra() !== 'legacy') throw new Error('the client did not stay on the 2025 era');
      clients.push(client);
      return connection;
    },
    closeAll: async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    },
    differences: {
      ...V2_SERVER,
      // The v1 client's error message carries v1's `MCP error <code>: ` prefix, a v2 client's not.
      ...(clientSdk === 'v1'
        ? { unknownTool: { rejects: true, message: 'MCP error -32602: Tool nope not found' } }
        : {}),
      serverProgressWhileAsking: true,
    },
  };
}
