// Real raider-server processes over HTTP for the team scale test (messages-scale.test.ts): spawn
// the built CLI on a free port (its URL read from the log), stop or kill it, and connect an agent
// to it as its own SDK v1 session (X-Raider-Agent).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI, textOf } from './helpers.js';

/** How much of a server's stderr is kept (its end), for failure messages. */
const LOG_KEPT = 100_000;

/** One raider-server process serving Streamable HTTP. */
export interface ServerProcess {
  child: ChildProcess;
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp. */
  url: string;
  /** The end of what it wrote to stderr. */
  log(): string;
  /** Resolves once the process has exited (for any reason). */
  exited: Promise<void>;
}

/**
 * Starts the built server (`dist/cli.js`) with `--http --port 0` and `args`, and resolves with its
 * URL once it logs that it listens. It is killed if the test process exits before it.
 */
export async function spawnServer(args: readonly string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI, '--http', '--port', '0', '--log-level', 'info', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // Only PATH: the RAIDER_* variables of the test run must not change the server's options.
    env: { PATH: process.env.PATH ?? '' },
  });
  // A worker that dies without its afterAll must not leave servers running.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const exited = once(child, 'exit').then(() => {
    process.off('exit', reap);
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    let listening = false;
    child.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-LOG_KEPT);
      const match = listening ? null : /listening on (http:\/\/\S+)/.exec(log);
      if (match) {
        listening = true;
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`raider-server exited (${code ?? signal}) before it listened: ${log}`)),
    );
  });
  return { child, url, log: () => log, exited };
}

/** Ends `server` with `signal` (SIGKILL after 10 s for any other), and resolves once it has exited. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill(signal);
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
    await server.exited;
    clearTimeout(timer);
  }
}

/**
 * `fetch` over node:http with a connection of its own per request, closed after it. The global
 * fetch keeps connections alive and reuses them; under load a POST sometimes goes out on one the
 * server is closing as idle (Node's 5-s keep-alive timeout) and fails with "other side closed"
 * before the server read it. For a tool call that is a failure the client cannot tell from a
 * call the server ran (a send that may have been stored), so a test counting every send would
 * see spurious unknowns; one connection per request has no such race.
 */
export function freshConnectionFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const req = request(
      new URL(input),
      { method: init.method ?? 'GET', headers, agent: false, ...(init.signal ? { signal: init.signal } : {}) },
      (res) => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
        }
        const status = res.statusCode ?? 502;
        const body = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: answerHeaders }));
      },
    );
    req.on('error', reject);
    req.end(typeof init.body === 'string' ? init.body : undefined);
  });
}

/** One agent's MCP session on one server. */
export interface AgentSession {
  /** A tool call's text (an error result's too: it starts with `Error:`); rejects when the transport fails. */
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<string>;
  /** True once the session was closed or retired (by `retire`, or because its connection broke). */
  readonly closed: boolean;
  /**
   * Gives the session up: `closed` at once (make a new one), closed for good after a moment, so
   * an answer already on its way is still read. Closing at once would drop it: the SDK rejects
   * every call in flight as it closes, and a message in an answer the server saw written is gone.
   */
  retire(): void;
  close(): Promise<void>;
}

/** How long a retired session stays open for answers already on their way. */
const RETIRE_GRACE_MS = 1_000;

/**
 * Connects agent `agent` to the server at `url` as a 2025-era session of its own (SDK v1,
 * `X-Raider-Agent`). A broken stream retires the session: SDK v1 does not fail a call whose
 * response stream broke without a resumption point, so without this a call to a killed server
 * would wait for its timeout; closed, every call still in flight rejects.
 */
export async function connectAgent(url: string, agent: string): Promise<AgentSession> {
  const client = new Client({ name: `scale-${agent}`, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { 'X-Raider-Agent': agent } },
    fetch: freshConnectionFetch,
    // A session that broke is replaced by a new one, never resumed.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
  let closed = false;
  let ended: Promise<void> | undefined;
  const close = () => {
    closed = true;
    ended ??= client.close().catch(() => {});
    return ended;
  };
  const retire = () => {
    if (closed) return;
    closed = true;
    setTimeout(() => void close(), RETIRE_GRACE_MS);
  };
  client.onerror = (error) => {
    if (/SSE stream disconnected|fetch failed|terminated|ECONNREFUSED|ECONNRESET|socket/i.test(error.message)) retire();
  };
  try {
    await client.connect(transport);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    call: async (name, args, timeoutMs = 120_000) => {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
      return textOf(result) ?? '';
    },
    get closed() {
      return closed;
    },
    retire,
    close,
  };
}
