// Scale-out: three real raider-server processes on one PostgreSQL list behind a load balancer.
// 2026-era clients need no affinity (a plain round robin: every request to the next backend):
// concurrent creates lose nothing and get unique ids, ask_user's retry is answered by another
// backend than the one that asked, and a listen stream held by one backend hears a change made
// through another. 2025-era sessions need affinity: the example proxy
// (examples/session-affinity-proxy.mjs) keeps a session on the backend that issued it, and a
// plain round robin loses it (404). Latencies are measured and logged, not asserted (busy CI).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase } from '../../../packages/postgres-store/test/postgres-faults.js';
import { type AffinityProxy, startAffinityProxy } from '../examples/session-affinity-proxy.mjs';
import { CLI, textOf } from './helpers.js';

const databaseUrl = inject('databaseUrl');
const embedded = inject('databaseEmbedded');
// A database of the file's own when the tests run PostgreSQL (then the list is plainly `team`).
let database: { url: string; drop(): Promise<void> } = { url: databaseUrl, drop: async () => {} };
// One key for every replica: each accepts the question state (ask_user's retry) another signed.
const STATE_SECRET = randomBytes(24).toString('hex');
const LIST = embedded ? 'team' : `team-${Date.now().toString(36)}`;

interface Backend {
  child: ChildProcess;
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp. */
  url: string;
  log: () => string;
}

/** Starts the built server over HTTP on a free port on the list in PostgreSQL; resolves with its URL from the log. */
async function spawnBackend(url: string): Promise<Backend> {
  const child = spawn(
    process.execPath,
    [
      CLI,
      '--http',
      '--port',
      '0',
      '--database-url',
      url,
      '--list',
      LIST,
      '--state-secret',
      STATE_SECRET,
      '--log-level',
      'info',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
  );
  let log = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(log);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`raider-server exited ${code}: ${log}`)));
  });
  return { child, url: endpoint, log: () => log };
}

/** One request the round-robin proxy passed on: to which backend, which JSON-RPC message, what came back. */
interface Routed {
  backend: number;
  httpMethod: string;
  rpc: { method?: string; params?: Record<string, unknown> } | undefined;
  status?: number;
  sessionId?: string;
}

/**
 * A plain round-robin HTTP proxy: each request to the next backend in turn, body and headers
 * piped both ways, answers (event streams too) passed through as they come. It logs each request.
 */
async function roundRobinProxy(backends: readonly string[]) {
  const targets = backends.map((b) => new URL(b));
  const log: Routed[] = [];
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  const server = createServer((req, res) => {
    const backend = next;
    next = (next + 1) % targets.length;
    const target = targets[backend] as URL;
    const entry: Routed = { backend, httpMethod: req.method ?? '', rpc: undefined };
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') entry.sessionId = sid;
    log.push(entry);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        entry.rpc = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {}
    });
    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (answer) => {
        entry.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

let backends: Backend[] = [];
let proxy: Awaited<ReturnType<typeof roundRobinProxy>>;
let affinity: AffinityProxy;
const clients: { close(): Promise<unknown> }[] = [];
/** The measured figures, logged at the end (for the README, not asserted). */
const report: Record<string, unknown> = {};

beforeAll(async () => {
  if (embedded) database = await freshDatabase(databaseUrl);
  backends = await Promise.all([1, 2, 3].map(() => spawnBackend(database.url)));
  proxy = await roundRobinProxy(backends.map((b) => b.url));
  affinity = await startAffinityProxy({ port: 0, backends: backends.map((b) => new URL(b.url).origin) });
}, 120_000);

afterAll(async () => {
  console.log(`[scale-out] measured: ${JSON.stringify(report)}`);
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await proxy?.close();
  await affinity?.close();
  await Promise.all(
    backends.map(async ({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }),
  );
  await database.drop();
}, 120_000);

type Elicit = (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> };

/** A v2 client pinned to 2026-07-28 on `url` (the proxy, or one backend), eliciting when `elicit` is given. */
async function modernClient(url: string, elicit?: Elicit): Promise<Client> {
  const client = new Client(
    { name: 'scale-out', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params.message));
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

const CREATED = /^Task #(\d+) created successfully: (.*)$/;

/** The task ids task_list shows through `client`. */
async function listedIds(client: Client): Promise<string[]> {
  const text = textOf(await client.callTool({ name: 'task_list', arguments: {} })) ?? '';
  return [...text.matchAll(/^#(\d+) \[/gm)].map((m) => m[1] as string);
}

/** How many 2025-era sessions a backend holds now (its /healthz). */
async function sessionsOpen(url: string): Promise<number> {
  const answer = await fetch(new URL('/healthz', url));
  return ((await answer.json()) as { sessions: number }).sessions;
}

const toolCall = (entry: Routed, name: string) => entry.rpc?.method === 'tools/call' && entry.rpc.params?.name === name;

describe('three raider-server processes on one PostgreSQL list, behind a load balancer', () => {
  it('2026 era, plain round robin: 4 clients x 15 concurrent task_create lose nothing, ids unique, every backend lists all 60', async () => {
    const writers = await Promise.all([1, 2, 3, 4].map(() => modernClient(proxy.url)));
    const mark = proxy.log.length;
    const started = performance.now();
    const answers = await Promise.all(
      writers.flatMap((client, c) =>
        Array.from({ length: 15 }, (_, i) =>
          client
            .callTool({ name: 'task_create', arguments: { subject: `c${c}-${i}`, description: '' } })
            .then(textOf, (error: Error) => `failed: ${error.message}`),
        ),
      ),
    );
    report.concurrentCreates = {
      clients: 4,
      perClient: 15,
      totalMs: Math.round(performance.now() - started),
      perBackend: [0, 1, 2].map(
        (b) => proxy.log.slice(mark).filter((e) => e.backend === b && toolCall(e, 'task_create')).length,
      ),
    };
    const matches = answers.map((text) => CREATED.exec(text ?? ''));
    expect(answers.filter((_, i) => matches[i] === null)).toEqual([]);
    const ids = matches.map((m) => (m as RegExpExecArray)[1] as string);
    expect(new Set(ids).size).toBe(60);
    expect(new Set(matches.map((m) => (m as RegExpExecArray)[2])).size).toBe(60);
    // The creates were spread over all three backends.
    for (const count of (report.concurrentCreates as { perBackend: number[] }).perBackend)
      expect(count).toBeGreaterThan(0);
    // Every backend, asked directly, lists all 60.
    for (const backend of backends) {
      const reader = await modernClient(backend.url);
      expect((await listedIds(reader)).sort()).toEqual([...ids].sort());
    }
  }, 120_000);

  it('2026 era: ask_user asks on one backend (input_required) and the retry is answered by another', async () => {
    const asked: string[] = [];
    const client = await modernClient(proxy.url, (message) => {
      asked.push(message);
      return { action: 'accept', content: { answer: 'Use PostgreSQL' } };
    });
    const mark = proxy.log.length;
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Which database?' } });
    expect(textOf(result)).toBe('Use PostgreSQL');
    expect(asked).toEqual(['Which database?']);
    const rounds = proxy.log.slice(mark).filter((e) => toolCall(e, 'ask_user'));
    expect(rounds).toHaveLength(2);
    const [first, retry] = rounds as [Routed, Routed];
    expect(first.rpc?.params?.inputResponses).toBeUndefined();
    expect(retry.rpc?.params?.inputResponses).toBeDefined();
    expect(retry.backend).not.toBe(first.backend);
    report.askUser = { firstRoundBackend: first.backend, retryBackend: retry.backend };
  }, 60_000);

  it('2026 era: a listen stream held by one backend hears raider://tasks change through another backend', async () => {
    const watcher = await modernClient(proxy.url);
    const heard: number[] = [];
    watcher.setNotificationHandler('notifications/resources/updated', (notification) => {
      if (notification.params.uri === 'raider://tasks') heard.push(performance.now());
    });
    const mark = proxy.log.length;
    const subscription = await watcher.listen({ resourceSubscriptions: ['raider://tasks'] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual(['raider://tasks']);
    const listens = proxy.log.slice(mark).filter((e) => e.rpc?.method === 'subscriptions/listen');
    expect(listens).toHaveLength(1);
    const holder = (listens[0] as Routed).backend;
    // Writers straight to the two other backends, each a few times, one change at a time.
    const others = [0, 1, 2].filter((b) => b !== holder);
    const writers = await Promise.all(others.map((b) => modernClient((backends[b] as Backend).url)));
    const afterAnswer: number[] = [];
    const afterCall: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      const writer = writers[round % writers.length] as Client;
      const before = heard.length;
      const called = performance.now();
      const text = textOf(
        await writer.callTool({ name: 'task_create', arguments: { subject: `heard-${round}`, description: '' } }),
      );
      const answered = performance.now();
      expect(text).toMatch(CREATED);
      try {
        await expect.poll(() => heard.length, { timeout: 10_000, interval: 5 }).toBeGreaterThan(before);
      } catch (error) {
        throw new Error(`round ${round}: not heard; the holder said:\n${backends[holder]?.log()}`, { cause: error });
      }
      const at = heard[before] as number;
      afterCall.push(Math.round(at - called));
      afterAnswer.push(Math.round(at - answered));
    }
    report.listenAcrossProcesses = {
      holder,
      writersOn: others,
      msFromCallStart: afterCall,
      msFromCreateAnswer: afterAnswer,
      maxMsFromCallStart: Math.max(...afterCall),
    };
    console.log(`[scale-out] listen notification across processes: ${JSON.stringify(report.listenAcrossProcesses)}`);
    // The stream stayed on its backend: one listen request in all.
    expect(proxy.log.slice(mark).filter((e) => e.rpc?.method === 'subscriptions/listen')).toHaveLength(1);
    await subscription.close();
  }, 120_000);

  it('2025 era through the session-affinity proxy: a whole session works, every request on the backend that issued it', async () => {
    const client = new V1Client({ name: 'legacy', version: '1.0.0' });
    clients.push(client);
    const transport = new V1HttpTransport(new URL(`${affinity.url}/mcp`));
    await client.connect(transport);
    const sessionId = transport.sessionId as string;
    expect(sessionId).toBeTruthy();
    expect(affinity.sessions.has(sessionId)).toBe(true);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('task_create');
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const text = textOf(
        await client.callTool({ name: 'task_create', arguments: { subject: `legacy-${i}`, description: '' } }),
      );
      const match = CREATED.exec(text ?? '');
      expect(match, text).not.toBeNull();
      ids.push((match as RegExpExecArray)[1] as string);
    }
    expect(textOf(await client.callTool({ name: 'task_get', arguments: { taskId: ids[0] as string } }))).toMatch(
      /^Task #\d+: legacy-0\n/,
    );
    const listed = textOf(await client.callTool({ name: 'task_list', arguments: {} })) ?? '';
    for (const id of ids) expect(listed).toMatch(new RegExp(`^#${id} \\[pending\\] legacy-`, 'm'));
    const read = await client.readResource({ uri: 'raider://tasks' });
    expect((read.contents[0] as { text: string }).text).toContain('legacy-3');
    // The session lives on the backend that issued it, and only there.
    const owner = affinity.sessions.get(sessionId);
    const open = await Promise.all(backends.map((b) => sessionsOpen(b.url)));
    expect(open).toEqual([0, 1, 2].map((b) => (b === owner ? 1 : 0)));
    // Meanwhile requests without a session (2026-era clients) still go round robin through the same proxy.
    const modern = await modernClient(`${affinity.url}/mcp`);
    expect((await listedIds(modern)).length).toBeGreaterThanOrEqual(60 + 6 + 4);
    await transport.terminateSession();
    expect(affinity.sessions.has(sessionId)).toBe(false);
  }, 60_000);

  it('2025 era through the plain round robin (negative control): the session is lost, 404 on another backend', async () => {
    const client = new V1Client({ name: 'legacy-lost', version: '1.0.0' });
    clients.push(client);
    const mark = proxy.log.length;
    const failure = await (async () => {
      await client.connect(new V1HttpTransport(new URL(proxy.url)));
      await client.callTool({ name: 'task_list', arguments: {} });
    })().then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    const routed = proxy.log.slice(mark);
    const initialize = routed.find((e) => e.rpc?.method === 'initialize') as Routed;
    expect(initialize.status).toBe(200);
    const lost = routed.filter((e) => e.sessionId !== undefined && e.status === 404);
    expect(lost.length).toBeGreaterThan(0);
    for (const entry of lost) expect(entry.backend).not.toBe(initialize.backend);
    expect(failure?.message).toMatch(/404|Session not found/);
    console.log(`[scale-out] 2025 era through plain round robin: ${failure?.message}`);
  }, 60_000);
});
