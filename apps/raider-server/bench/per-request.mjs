// The 2026 era's cost per request over HTTP, the server's side of it, in one process: raider's
// per-list handler as src/http/modern.ts builds it (`createMcpHandler` over a long-lived
// conversation, `newServer('modern')` per request) against a bare `createMcpHandler` whose
// factory makes an McpServer with one tool answering the same bytes. The same recorded request
// (what a v2 client pinned to 2026-07-28 sent) is replayed through each handler's `fetch` and its
// answer read whole: no socket, no client, only what the server does per request. A third
// handler, for information, hands out one bare server made once (what building per request
// costs). Run by round-trip.mjs (BENCH_ONLY=perrequest), pinned to the servers' core; prints one
// JSON line of results on stdout.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const { createConversation, readOptions } = await import('../dist/index.js');
// RAIDER_COMPARE_DIST: another build of raider's dist/ (a copy made before a change), measured
// beside this one in the same rounds, for the change's figures.
const other = process.env.RAIDER_COMPARE_DIST
  ? await import(pathToFileURL(join(resolve(process.env.RAIDER_COMPARE_DIST), 'index.js')).href)
  : undefined;

const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1000);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 10);
const URL_ = 'http://127.0.0.1/mcp';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** A conversation on a list in memory, as the server's defaults make it. */
function conversationOf({ createConversation, readOptions }) {
  const options = readOptions(['--http', '--max-tasks', '20000'], {});
  const { family, names, askTimeoutMs, limits, claims, boardApp, structuredOutput, alwaysLoad } = options;
  return createConversation({ family, names, askTimeoutMs, limits, claims, boardApp, structuredOutput, alwaysLoad });
}
const conversation = conversationOf({ createConversation, readOptions });
/** Time spent in each handler's factory, in ns, and how many servers it made. */
const built = { raider: [0n, 0], bare: [0n, 0], other: [0n, 0] };
const timedFactory = (name, make) => () => {
  const start = process.hrtime.bigint();
  const server = make();
  built[name][0] += process.hrtime.bigint() - start;
  built[name][1] += 1;
  return server;
};
const raider = createMcpHandler(
  timedFactory('raider', () => conversation.newServer('modern')),
  { legacy: 'reject' },
);
conversation.onChanged((uri) => raider.notify.resourceUpdated(uri));
const otherConversation = other && conversationOf(other);
const otherHandler =
  otherConversation &&
  createMcpHandler(
    timedFactory('other', () => otherConversation.newServer('modern')),
    { legacy: 'reject' },
  );
otherConversation?.onChanged((uri) => otherHandler.notify.resourceUpdated(uri));

const replay = (handler, request) => async () => {
  const response = await handler.fetch(
    new Request(request.url, { method: request.method, headers: request.headers, body: request.body }),
  );
  return response.text();
};

// A v2 client pinned to 2026-07-28 whose requests go straight to raider's handler; the last
// request it sent is kept, to be replayed.
let last;
const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(
  new StreamableHTTPClientTransport(new URL(URL_), {
    fetch: async (url, init) => {
      last = { url: String(url), method: init.method, headers: [...new Headers(init.headers)], body: init.body };
      return raider.fetch(new Request(url, init));
    },
  }),
);
for (let i = 1; i <= 1000; i += 1) {
  await client.callTool({ name: 'task_create', arguments: { subject: `Task ${i}`, description: '' } });
  if (otherHandler) await replay(otherHandler, last)();
}

const percentile = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
async function timed(call) {
  const start = process.hrtime.bigint();
  await call();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The bare factory: an McpServer named as raider, with one tool answering `answer`. */
const bareFactory = (info, tool, answer) => () => {
  const server = new McpServer(info);
  server.registerTool(tool, { description: 'Echo', inputSchema: z.object({ taskId: z.string() }) }, async () => answer);
  return server;
};

const results = [];
// task_get reads; task_update writes (a status flipped, so the list keeps its size).
const measured = {
  task_get: [{ taskId: '500' }],
  task_update: [
    { taskId: '500', status: 'in_progress' },
    { taskId: '500', status: 'pending' },
  ],
};
for (const [tool, argumentsList] of Object.entries(measured)) {
  const requests = [];
  let answer;
  for (const args of argumentsList) {
    answer = await client.callTool({ name: tool, arguments: args });
    requests.push(last);
  }
  const { [SERVER_INFO]: info, ...meta } = answer._meta ?? {};
  const { _meta, ...rest } = answer;
  const fixed = Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
  const bare = createMcpHandler(timedFactory('bare', bareFactory(info, tool, fixed)), { legacy: 'reject' });
  const once = bareFactory(info, tool, fixed)();
  const longLived = createMcpHandler(() => once, { legacy: 'reject' });
  // Each handler replays its requests in turn (task_update flips the status back and forth).
  const caller = (handler) => {
    const calls = requests.map((request) => replay(handler, request));
    let i = 0;
    return () => calls[i++ % calls.length]();
  };
  const participants = {
    raider: caller(raider),
    bare: caller(bare),
    longLived: caller(longLived),
    ...(otherHandler ? { other: caller(otherHandler) } : {}),
  };
  const answers = await Promise.all(Object.values(participants).map((call) => call()));
  if (new Set(answers).size !== 1) throw new Error(`the bare answer differs: ${answers.join(' / ')}`);
  for (let i = 0; i < WARM_UP; i += 1) for (const call of Object.values(participants)) await call();
  for (const name of Object.keys(built)) built[name] = [0n, 0];
  const samples = Object.fromEntries(Object.keys(participants).map((name) => [name, []]));
  const names = Object.keys(participants);
  for (let round = 0; round < ROUNDS; round += 1) {
    // Who goes first moves round by round.
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(round + k) % names.length];
      for (let i = 0; i < BLOCK; i += 1) samples[name].push(await timed(participants[name]));
    }
  }
  const stats = Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [name, [percentile(s, 50), percentile(s, 99)]]),
  );
  const factoryMs = Object.fromEntries(
    Object.entries(built)
      .filter(([, [, count]]) => count > 0)
      .map(([name, [ns, count]]) => [name, Number(ns) / 1e6 / count]),
  );
  results.push({ tool, stats, factoryMs });
  await Promise.all([bare.close(), longLived.close()]);
}
await client.close();
await Promise.all([raider.close(), otherHandler?.close()]);
await Promise.all([conversation.close('done'), otherConversation?.close('done')]);
process.stdout.write(`${JSON.stringify(results)}\n`);
