#!/usr/bin/env node
// A session-affinity proxy for raider-server replicas on one PostgreSQL (node:http only, no deps).
//
// 2026-07-28-era requests carry no session: any replica serves any of them, so a request without
// an Mcp-Session-Id goes to the next backend in turn (round robin). A 2025-era session lives in
// the replica that answered its initialize: that answer's `mcp-session-id` header is remembered,
// and every later request carrying that id goes to the same backend (a request for an id this
// proxy never saw is answered 404, as a replica answers a session it does not hold: the client
// starts a new one). Bodies and answers are piped both ways unbuffered (event streams included);
// the Host header is the backend's, as the replicas check it.
//
//   node examples/session-affinity-proxy.mjs --port 8080 http://127.0.0.1:3001 http://127.0.0.1:3002
//
// Or from code: `const proxy = await startAffinityProxy({ port: 0, backends: [...] })`, then
// `proxy.url`, `proxy.sessions` (session id -> backend) and `await proxy.close()`.
import { Agent, createServer, request } from 'node:http';
import { pathToFileURL } from 'node:url';

/**
 * Starts the proxy; resolves once it listens.
 * @param {{ port?: number, host?: string, backends: readonly (string | URL)[] }} options
 */
export async function startAffinityProxy({ port = 0, host = '127.0.0.1', backends }) {
  if (!backends || backends.length === 0) throw new Error('startAffinityProxy: expected at least one backend URL');
  const targets = backends.map((backend) => new URL(backend));
  /** @type {Map<string, number>} session id -> index of the backend that issued it */
  const sessions = new Map();
  const agent = new Agent({ keepAlive: true });
  let next = 0;

  const server = createServer((req, res) => {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    let index;
    if (sessionId) {
      index = sessions.get(sessionId);
      if (index === undefined) {
        req.resume();
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32001, message: 'Session not found: start a new one with initialize' },
            id: null,
          }),
        );
        return;
      }
    } else {
      index = next;
      next = (next + 1) % targets.length;
    }
    const target = /** @type {URL} */ (targets[index]);
    const upstream = request(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (answer) => {
        const issued = answer.headers['mcp-session-id'];
        if (typeof issued === 'string' && !sessionId) sessions.set(issued, index);
        // A session that ended (DELETE) or that its backend no longer holds is forgotten.
        if (sessionId && (answer.statusCode === 404 || (req.method === 'DELETE' && (answer.statusCode ?? 0) < 300)))
          sessions.delete(sessionId);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // An event stream: its headers now, each event as it comes.
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Bad gateway: ${error.message}` } }));
      } else res.destroy();
    });
    // The client went away before its answer ended (a closed event stream): so does the backend request.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    sessions,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

// Run as a command: --port N [--host ADDRESS] BACKEND_URL...
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  let port = 8080;
  let host = '127.0.0.1';
  const backends = [];
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--port') port = Number(args[++i]);
    else if (args[i] === '--host') host = String(args[++i]);
    else backends.push(String(args[i]));
  }
  if (backends.length === 0 || !Number.isInteger(port)) {
    console.error('usage: session-affinity-proxy.mjs [--port 8080] [--host 127.0.0.1] BACKEND_URL...');
    process.exit(2);
  }
  const proxy = await startAffinityProxy({ port, host, backends });
  console.error(`session-affinity proxy on ${proxy.url}/mcp -> ${backends.join(', ')}`);
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
