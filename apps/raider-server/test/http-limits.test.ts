// What a hostile or careless client cannot do to the HTTP server: grow its memory, hold its
// sockets, lock others out. In-process, except where the process's own memory is the measure.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as connectSocket, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServer, startHttp } from '../src/http/server.js';
import { createLogger } from '../src/log.js';
import { readOptions, type ServerOptions } from '../src/options.js';
import { CLI } from './helpers.js';

const servers: HttpServer[] = [];
const clients: Client[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(overrides: Partial<ServerOptions> = {}, lines: string[] = []) {
  const log = createLogger('debug', (line) => lines.push(line));
  const server = await startHttp({ ...readOptions(['--http', '--port', '0'], {}), ...overrides }, log);
  servers.push(server);
  return server;
}

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'limits', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/**
 * Sends `megabytes` MB of body to `url` as an attacker would: on and on, whatever the server
 * answers, until all is sent or the server closes the connection. Resolves with the status it
 * answered.
 */
function flood(url: string, megabytes: number, headers: Record<string, string> = {}): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve) => {
    let status = 0;
    // Done when the server has answered and the body is all sent or the connection is gone.
    let answered = false;
    let over = false;
    const settle = () => {
      // A connection that went away without an answer resolves too (status 0), never hangs.
      if (over && (answered || req.destroyed)) resolve(status);
    };
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        answered = true;
        settle();
      },
    );
    const end = () => {
      over = true;
      settle();
    };
    req.on('finish', end);
    req.on('close', end);
    req.on('error', () => {});
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < megabytes && !req.destroyed) {
        sent += 1;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** The peak resident memory of process `pid`, in MB (Linux). */
function peakRssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1]) / 1024;
}

describe('request bodies', () => {
  it('300 MB sent to the board, 100 MB to /mcp: 413 for each, the server alive, its memory bounded', async () => {
    const child = spawn(process.execPath, [CLI, '--http', '--port', '0', '--board'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
    try {
      let log = '';
      const boardUrl = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          log += chunk;
          const match = /the board: (\S+)/.exec(log);
          if (match) resolve(match[1] as string);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${log}`)));
      });
      const secret = new URL(boardUrl).searchParams.get('token') as string;
      const base = boardUrl.replace(/\?.*$/, '');
      expect(await flood(`${base}board/answer`, 300, { cookie: `raider_token=${secret}` })).toBe(413);
      expect(await flood(`${base}mcp`, 100)).toBe(413);
      const health = await fetch(`${base}healthz`);
      expect(health.status).toBe(200);
      expect(peakRssMb(child.pid as number)).toBeLessThan(250);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('sessions', () => {
  it('at the cap, the longest-idle session makes room (logged at info); all busy, 503 (logged at warn)', async () => {
    const lines: string[] = [];
    const server = await serve({ maxSessions: 2 }, lines);
    const first = await connect(server.url);
    await connect(server.url);
    await first.callTool({ name: 'task_list', arguments: {} });
    // The second is now the longest idle: the third client gets in, and the second is closed.
    const third = await connect(server.url);
    expect(server.sessions.size).toBe(2);
    expect(
      lines.some((l) => /^raider-server info: session \S+ ended: 2 sessions were open; it was idle longest/.test(l)),
    ).toBe(true);
    expect((await third.callTool({ name: 'task_list', arguments: {} })).isError).toBeFalsy();
    expect((await first.callTool({ name: 'task_list', arguments: {} })).isError).toBeFalsy();

    // Both sessions busy (a question each, waiting on a person nobody is): the next is refused.
    const busy = await serve({ maxSessions: 2 }, lines);
    for (let i = 0; i < 2; i += 1) {
      const client = new Client({ name: 'busy', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
      const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
      client.setRequestHandler(ElicitRequestSchema, () => new Promise(() => {}));
      await client.connect(new StreamableHTTPClientTransport(new URL(busy.url)));
      clients.push(client);
      void client.callTool({ name: 'ask_user', arguments: { question: `Waiting ${i}?` } }).catch(() => {});
    }
    await expect.poll(() => lines.filter((l) => l.includes('asked: Waiting')).length, { timeout: 10_000 }).toBe(2);
    const refused = await connect(busy.url).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toContain('2 sessions are open and busy');
    expect(lines.some((l) => l.startsWith('raider-server warn: refused a session: all 2 sessions are busy'))).toBe(
      true,
    );
  }, 60_000);

  it('lists named with X-Raider-List live while used (plus the idle time), and are bounded', async () => {
    const server = await serve({ idleTimeoutMs: 300, maxSessions: 3 });
    const sharedListCount = () => server.runtime.memoryLists.count();
    const before = sharedListCount();
    for (let i = 0; i < 20; i += 1) {
      const client = await connect(server.url, { 'x-raider-list': `scratch-${i}` });
      await client.callTool({
        name: 'task_create',
        arguments: { subject: 'x'.repeat(400), description: 'y'.repeat(5000) },
      });
      await client.close();
    }
    // Each list outlives its session by the idle time, then goes; never more than the bound at once.
    expect(sharedListCount() - before).toBeLessThanOrEqual(3);
    await expect.poll(() => sharedListCount() - before, { timeout: 10_000 }).toBe(0);
    // A list in use is kept for the next session that names it.
    const a = await connect(server.url, { 'x-raider-list': 'team' });
    await a.callTool({ name: 'task_create', arguments: { subject: 'Kept', description: '' } });
    const b = await connect(server.url, { 'x-raider-list': 'team' });
    expect((await b.callTool({ name: 'task_list', arguments: {} })).content).toEqual([
      { type: 'text', text: '#1 [pending] Kept' },
    ]);
  }, 60_000);
});

describe('connections', () => {
  it('a client that sends its headers slowly is cut off in seconds, not minutes', async () => {
    const server = await serve({ headersTimeoutMs: 500, requestTimeoutMs: 1000 });
    const { port } = new URL(server.url);
    const socket = connectSocket(Number(port), '127.0.0.1');
    sockets.push(socket);
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);

  it('connections past the cap are refused; the server goes on serving', async () => {
    const server = await serve({ maxConnections: 5 });
    const { port } = new URL(server.url);
    const held: Socket[] = [];
    for (let i = 0; i < 5; i += 1) {
      const socket = connectSocket(Number(port), '127.0.0.1');
      sockets.push(socket);
      held.push(socket);
      await new Promise((resolve) => socket.once('connect', resolve));
    }
    const extra = connectSocket(Number(port), '127.0.0.1');
    sockets.push(extra);
    await new Promise((resolve) => extra.once('close', resolve));
    for (const socket of held) socket.destroy();
    await expect
      .poll(async () => (await fetch(server.url.replace('/mcp', '/healthz')).catch(() => ({ status: 0 }))).status, {
        timeout: 10_000,
      })
      .toBe(200);
  }, 30_000);
});
