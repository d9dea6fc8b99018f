import { request } from 'node:http';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_OAUTH_MESSAGE } from '../src/http/guard.js';
import { type HttpServer, readOptions, type ServerOptions, startHttp } from '../src/index.js';
import { textOf } from './helpers.js';

const servers: HttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(overrides: Partial<ServerOptions> = {}) {
  const options = { ...readOptions(['--http', '--port', '0'], {}), ...overrides };
  const server = await startHttp(options);
  servers.push(server);
  return server;
}

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** A raw HTTP request with any headers (fetch will not let a test forge Host). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const target = new URL(url);
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }),
        );
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('raider-server over Streamable HTTP', () => {
  it('serves /healthz and isolates two sessions', async () => {
    const server = await serve();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const health = await raw(server.url.replace('/mcp', '/healthz'), { method: 'GET' });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: 'ok', sessions: 0 });
    const a = await connect(server.url);
    const b = await connect(server.url);
    await a.client.callTool({ name: 'task_create', arguments: { subject: 'Only in A', description: '' } });
    expect(textOf(await a.client.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Only in A');
    expect(textOf(await b.client.callTool({ name: 'task_list', arguments: {} }))).toBe('No tasks found');
    expect(server.sessions.size).toBe(2);
  });

  it('refuses a bad Host and a bad Origin with 403', async () => {
    const server = await serve();
    const port = new URL(server.url).port;
    const badHost = await raw(server.url, { headers: { host: `evil.example:${port}` }, body: INIT });
    expect(badHost.status).toBe(403);
    expect(JSON.parse(badHost.body).error.message).toBe(`Forbidden: Host "evil.example:${port}" is not allowed`);
    const badOrigin = await raw(server.url, { headers: { origin: 'https://evil.example' }, body: INIT });
    expect(badOrigin.status).toBe(403);
    const goodOrigin = await raw(server.url, { headers: { origin: `http://localhost:${port}` }, body: INIT });
    expect(goodOrigin.status).toBe(200);
    const configured = await serve({ allowedOrigins: ['https://app.example'] });
    expect((await raw(configured.url, { headers: { origin: 'https://app.example' }, body: INIT })).status).toBe(200);
  });

  it('requires the bearer token on a non-loopback bind', async () => {
    const server = await serve({ host: '0.0.0.0', token: 's3cret', allowedHosts: ['127.0.0.1'] });
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    const missing = await raw(url, { body: INIT });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect((await raw(url, { body: INIT, headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const { client } = await connect(url, { authorization: 'Bearer s3cret' });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(() => readOptions(['--http', '--host', '0.0.0.0'], {})).toThrow(/expected a bearer token/);
  });

  it('with --token, OAuth discovery and registration answer 404 (raider does no OAuth), /mcp keeps its 401', async () => {
    const server = await serve({ token: 's3cret-token' });
    const base = server.url.replace('/mcp', '');
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/register',
    ]) {
      for (const method of ['GET', 'POST']) {
        const answer = await raw(`${base}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
        expect({ path, method, status: answer.status }).toEqual({ path, method, status: 404 });
        expect(answer.headers['www-authenticate']).toBeUndefined();
        expect(JSON.parse(answer.body)).toEqual({ error: 'not_found', error_description: NO_OAUTH_MESSAGE });
      }
    }
    // Still behind the Host check.
    const port = new URL(server.url).port;
    expect((await raw(`${base}/register`, { headers: { host: `evil.example:${port}` }, body: '{}' })).status).toBe(403);
    const mcp = await raw(server.url, { body: INIT });
    expect(mcp.status).toBe(401);
    expect(mcp.headers['www-authenticate']).toBe('Bearer');

    // The SDK's own OAuth client, as Claude Code and the AI SDK run it on a 401: it ends with the
    // server's words, not "Dynamic Client Registration rejected (HTTP 401)".
    const provider: OAuthClientProvider = {
      redirectUrl: 'http://127.0.0.1:1/callback',
      clientMetadata: { redirect_uris: ['http://127.0.0.1:1/callback'], client_name: 'oauth-probe' },
      clientInformation: () => undefined,
      saveClientInformation: () => {},
      tokens: () => undefined,
      saveTokens: () => {},
      redirectToAuthorization: () => {},
      saveCodeVerifier: () => {},
      codeVerifier: () => '',
    };
    const client = new Client({ name: 'oauth-probe', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const failed = await client.connect(transport).then(
      () => undefined,
      (error: Error) => error,
    );
    await client.close().catch(() => {});
    expect(failed?.message).toContain('raider does no OAuth');
    expect(failed?.message).not.toContain('401');
  });

  it('caps concurrent sessions: idle ones make room for a newcomer (503 only when all are busy: http-limits)', async () => {
    const server = await serve({ maxSessions: 2 });
    await connect(server.url);
    await connect(server.url);
    const third = await raw(server.url, { body: INIT });
    expect(third.status).toBe(200);
    expect(server.sessions.size).toBe(2);
  });

  it('ends idle sessions', async () => {
    const server = await serve({ idleTimeoutMs: 150 });
    const { transport } = await connect(server.url);
    const sid = transport.sessionId as string;
    expect(server.sessions.size).toBe(1);
    await expect.poll(() => server.sessions.size, { timeout: 3000 }).toBe(0);
    const after = await raw(server.url, {
      headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });

  it('answers malformed bodies with JSON-RPC errors and keeps serving', async () => {
    const server = await serve({ maxBodyBytes: 2048 });
    const notJson = await raw(server.url, { body: '{"jsonrpc": "2.0", ' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not valid JSON' },
      id: null,
    });
    const scalar = await raw(server.url, { body: '"hello"' });
    expect(JSON.parse(scalar.body).error.code).toBe(-32600);
    const noSession = await raw(server.url, { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(noSession.status).toBe(400);
    const tooBig = await raw(server.url, { body: JSON.stringify({ pad: 'x'.repeat(5000) }) });
    expect(tooBig.status).toBe(413);
    const { client, transport } = await connect(server.url);
    const garbage = await raw(server.url, {
      headers: { 'mcp-session-id': transport.sessionId as string, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ not: 'json-rpc' }),
    });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(garbage.body).jsonrpc).toBe('2.0');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('DELETE ends a session', async () => {
    const server = await serve();
    const { transport } = await connect(server.url);
    const sid = transport.sessionId as string;
    await transport.terminateSession();
    await expect.poll(() => server.sessions.size).toBe(0);
    const after = await raw(server.url, {
      headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });

  it('answers unknown paths with 404', async () => {
    const server = await serve();
    expect((await raw(server.url.replace('/mcp', '/nope'), { method: 'GET' })).status).toBe(404);
  });

  it('sessions that name one list with X-Raider-List share it; others keep their own', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    for (const dataDir of [undefined, await mkdtemp(join(tmpdir(), 'raider-http-lists-'))]) {
      const server = await serve({ dataDir });
      const a = await connect(server.url, { 'x-raider-list': 'team' });
      const b = await connect(server.url, { 'x-raider-list': 'team' });
      const c = await connect(server.url);
      await a.client.callTool({ name: 'task_create', arguments: { subject: 'Shared', description: '' } });
      expect(textOf(await b.client.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Shared');
      expect(textOf(await c.client.callTool({ name: 'task_list', arguments: {} }))).toBe('No tasks found');
    }
  });

  it('refuses a hostile X-Raider-List with 400', async () => {
    const server = await serve();
    const bad = await raw(server.url, { headers: { 'x-raider-list': '../../etc' }, body: INIT });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toMatch(/^Bad x-raider-list header: list id "..\/..\/etc"/);
  });

  it('X-Raider-List is percent-decoded: team%20%CE%B2 is the list --list "team β" names', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = await mkdtemp(join(tmpdir(), 'raider-http-list-header-'));
    const named = await serve({ dataDir, list: 'team β' });
    const byName = await connect(named.url);
    await byName.client.callTool({ name: 'task_create', arguments: { subject: 'Made on team β', description: '' } });
    const server = await serve({ dataDir });
    const a = await connect(server.url, { 'x-raider-list': 'team%20%CE%B2' });
    const b = await connect(server.url, { 'x-raider-list': 'team%20%ce%b2' });
    expect(textOf(await a.client.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Made on team β');
    await a.client.callTool({
      name: 'task_create',
      arguments: { subject: 'Made through the header', description: '' },
    });
    expect(textOf(await b.client.callTool({ name: 'task_list', arguments: {} }))).toBe(
      '#1 [pending] Made on team β\n#2 [pending] Made through the header',
    );
    // Without a data dir too: two sessions naming it share one list in memory.
    const memory = await serve();
    const c = await connect(memory.url, { 'x-raider-list': 'team%20%CE%B2' });
    const d = await connect(memory.url, { 'x-raider-list': 'team%20%CE%B2' });
    await c.client.callTool({ name: 'task_create', arguments: { subject: 'Shared', description: '' } });
    expect(textOf(await d.client.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Shared');
  });

  it('refuses an X-Raider-List of raw non-ASCII bytes, control characters or a bad percent-encoding with 400', async () => {
    const server = await serve();
    // Node's client refuses header strings past latin1; the UTF-8 bytes of "team β" as latin1
    // characters go on the wire as those very bytes, as a client that sends raw UTF-8 does.
    const utf8 = Buffer.from('team β', 'utf8').toString('latin1');
    const cases = [
      { header: utf8, message: 'received byte 0xCE at byte 6 of 7' },
      { header: 'caf\u00e9', message: 'received byte 0xE9 at byte 4 of 4' },
      { header: 'team\tbeta', message: 'received control character 0x09 at byte 5 of 9' },
      { header: '%E0%A4%A', message: 'received a malformed percent-encoding: "%E0%A4%A"' },
      { header: '100%', message: 'received a malformed percent-encoding: "100%"' },
      { header: `${'%zz'.repeat(40)}`, message: 'received a malformed percent-encoding: a value of 120 characters' },
    ];
    for (const { header, message } of cases) {
      const refused = await raw(server.url, { headers: { 'x-raider-list': header }, body: INIT });
      expect({ header, status: refused.status }).toEqual({ header, status: 400 });
      const error = JSON.parse(refused.body).error;
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/^Bad x-raider-list header: expected a list name .*percent-encoded/);
      expect(error.message).toContain('team%20%CE%B2');
      expect(error.message).toContain(message);
      expect(error.message.length).toBeLessThan(300);
    }
    expect(server.sessions.size).toBe(0);
    // What was refused before still is, once decoded: a name that would escape the data dir.
    const escaping = await raw(server.url, { headers: { 'x-raider-list': '..%2F..%2Fetc' }, body: INIT });
    expect(escaping.status).toBe(400);
    expect(JSON.parse(escaping.body).error.message).toMatch(/^Bad x-raider-list header: list id "..\/..\/etc"/);
  });

  it('a raw UTF-8 X-Raider-List sent over a bare socket gets 400, not a list of mojibake', async () => {
    const { connect: connectSocket } = await import('node:net');
    const server = await serve();
    const { port } = new URL(server.url);
    const socket = connectSocket(Number(port), '127.0.0.1');
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(INIT)}\r\nConnection: close\r\nX-Raider-List: `;
    socket.write(Buffer.concat([Buffer.from(head), Buffer.from('team β', 'utf8'), Buffer.from(`\r\n\r\n${INIT}`)]));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(reply).toContain('percent-encoded');
    expect(server.sessions.size).toBe(0);
  });
});
