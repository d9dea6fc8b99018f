// Clients of agents on a list over HTTP (X-Raider-List, X-Raider-Agent), in either era, for the
// tests of messages and wake-ups (issue 27); each test's servers and clients close after it.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach } from 'vitest';
import { type HttpServer, readOptions, type ServerOptions, startHttp } from '../src/index.js';
import { textOf } from './helpers.js';

const servers: HttpServer[] = [];
const clients: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An HTTP server on a free port with `args`, closed after the test. */
export async function serve(args: string[] = [], overrides: Partial<ServerOptions> = {}) {
  const server = await startHttp({ ...readOptions(['--http', '--port', '0', ...args], {}), ...overrides });
  servers.push(server);
  return server;
}

export type Era = 'legacy' | 'modern';

/** An agent's client: a tool call's text, or its text and error flag, and the tools listed. */
export type AgentClient = {
  call(name: string, args?: Record<string, unknown>): Promise<string | undefined>;
  result(name: string, args?: Record<string, unknown>): Promise<{ isError?: boolean; text: string | undefined }>;
  tools(): Promise<string[]>;
  client: V1Client | Client;
};

/** A client of `era` on list `list` as agent `agent` (X-Raider-Agent; none when undefined), closed after the test. */
export async function agentClient(url: string, era: Era, list: string, agent?: string): Promise<AgentClient> {
  const headers: Record<string, string> = { 'X-Raider-List': list, ...(agent ? { 'X-Raider-Agent': agent } : {}) };
  const client =
    era === 'legacy'
      ? new V1Client({ name: `legacy-${agent}`, version: '1.0.0' })
      : new Client(
          { name: `modern-${agent}`, version: '1.0.0' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
  if (client instanceof V1Client) await client.connect(new V1HttpTransport(new URL(url), { requestInit: { headers } }));
  else await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  const result = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = await (client as V1Client).callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    return { isError: answer.isError as boolean | undefined, text: textOf(answer) };
  };
  return {
    client,
    result,
    call: async (name, args) => (await result(name, args)).text,
    tools: async () => (await (client as V1Client).listTools()).tools.map((tool) => tool.name).sort(),
  };
}
