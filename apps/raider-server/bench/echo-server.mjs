// The bare MCP server the round-trip bench compares raider-server with: SDK v2's McpServer with
// one echo tool, serving both eras the way raider serves them. Over stdio through `serveStdio`
// (the era from the client's opening: `initialize` 2025, `server/discover` 2026-07-28). Over
// Streamable HTTP with --http: each POST's body read and parsed first, then a 2025-era request
// (`isLegacyRequest`) goes to its session on v2's sessionful Node transport (one server per
// session) and a 2026-era one to a strict `createMcpHandler` through `toNodeHandler` (a server
// made per request by the factory, as raider's per-list handler does).
// With --answer FILE (JSON: `{ serverInfo, result }`) the server takes raider's name and version
// and its tool answers `result` whatever it is asked, so raider's answers (a todo answer carries
// the whole list) are compared with the SDK sending the same bytes; a 2026-era answer names the
// server in its `_meta`, hence the name.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const at = process.argv.indexOf('--answer');
const { serverInfo = { name: 'echo', version: '1.0.0' }, result: answer } =
  at > 0 ? JSON.parse(readFileSync(process.argv[at + 1], 'utf8')) : {};

function echoServer() {
  const server = new McpServer(serverInfo);
  server.registerTool('echo', { description: 'Echo', inputSchema: z.object({ text: z.string() }) }, async ({ text }) =>
    answer ? answer : { content: [{ type: 'text', text }] },
  );
  return server;
}

if (!process.argv.includes('--http')) {
  serveStdio(() => echoServer());
} else {
  const sessions = new Map();
  const modern = toNodeHandler(createMcpHandler(() => echoServer(), { legacy: 'reject' }));
  const http = createServer(async (req, res) => {
    let body;
    if (req.method === 'POST') {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      if (!(await isLegacyRequest(await toWebRequest(req, body), body))) return modern(req, res, body);
    }
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (!transport && isInitializeRequest(body)) {
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
        onsessionclosed: (sid) => sessions.delete(sid),
      });
      await echoServer().connect(transport);
    }
    if (!transport) return res.writeHead(400).end();
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`));
}
