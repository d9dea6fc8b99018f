// The bare MCP server the round-trip bench compares raider-server with: the SDK's McpServer with
// one echo tool, over stdio, or Streamable HTTP with --http (one session per client, as raider's).
// With --answer FILE the tool answers the tool result in FILE whatever it is asked, so raider's
// big answers (a todo answer carries the whole list) are compared with the SDK sending the same
// bytes.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const at = process.argv.indexOf('--answer');
const answer = at > 0 ? JSON.parse(readFileSync(process.argv[at + 1], 'utf8')) : undefined;

function echoServer() {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, async ({ text }) =>
    answer ? answer : { content: [{ type: 'text', text }] },
  );
  return server;
}

if (!process.argv.includes('--http')) {
  await echoServer().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (!transport && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      await echoServer().connect(transport);
    }
    if (!transport) return res.writeHead(400).end();
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`));
}
