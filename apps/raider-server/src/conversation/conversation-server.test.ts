// The SDK server of each server of a conversation: it shows a watcher each request before the SDK
// handles it, so a request can already see what the watcher registered (the board app offered on
// the request that announces MCP Apps).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openServer } from './conversation-server.js';

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

describe('the server of a conversation', () => {
  it('shows each request to a watcher before the SDK handles it, until the watcher is done', async () => {
    const server = openServer({ family: 'tasks', names: 'raider', askTimeoutMs: 1000 });
    // A tool before it connects, as every conversation's server has (the SDK takes no new capability after).
    server.registerTool('early', { description: 'early', inputSchema: z.object({}) }, async () => ({ content: [] }));
    const seen: string[] = [];
    server.watchRequests((request) => {
      seen.push(request.method);
      if (request.method !== 'tools/list') return false;
      // Registered as the listing arrives: the listing that triggered it already shows it.
      server.registerTool('late', { description: 'late', inputSchema: z.object({}) }, async () => ({ content: [] }));
      return true;
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'watch', version: '1.0.0' });
    await client.connect(clientSide);
    open.push(client, server);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['early', 'late']);
    await client.listTools();
    expect(seen).toEqual(['initialize', 'tools/list']);
  });
});
