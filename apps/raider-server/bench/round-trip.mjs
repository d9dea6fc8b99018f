// raider-server against bare SDK v2 servers (echo-server.mjs) started and served the same way,
// in both protocol eras, and (with RAIDER_V1_CLI) against today's v1 server in the 2025 era;
// calls alternate in blocks between them, so all see the same machine. Prints each goal of the
// cost issue as a ratio. Run after a build: `pnpm --filter @raider/server bench:server`.
// Not part of `pnpm test`: it measures, it does not pass or fail.
//
// The eras: 2025 (`initialize`, sessions) through the v1 client, as clients today; 2026-07-28
// (no session, a server per request over HTTP) through the v2 client pinned to it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TodoTool } from '@raider/todo-tools';

// RAIDER_CLI: another build of raider (a copy of dist/ made before a change) in its place.
const CLI = process.env.RAIDER_CLI
  ? resolve(process.env.RAIDER_CLI)
  : fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ECHO = fileURLToPath(new URL('./echo-server.mjs', import.meta.url));
const PER_REQUEST = fileURLToPath(new URL('./per-request.mjs', import.meta.url));
// Today's v1 server (the last commit before SDK v2, built in a worktree: README, "Cost"): its
// dist/cli.js. Without it the comparison with it is skipped.
const V1_CLI = process.env.RAIDER_V1_CLI ? resolve(process.env.RAIDER_V1_CLI) : undefined;
if (V1_CLI && !existsSync(V1_CLI)) throw new Error(`RAIDER_V1_CLI: no such file ${V1_CLI}`);
// RAIDER_COMPARE_CLI: another build of raider (a copy of dist/ made before a change) measured
// beside this one in both eras' round trips, for the change's figures.
const COMPARE_CLI = process.env.RAIDER_COMPARE_CLI ? resolve(process.env.RAIDER_COMPARE_CLI) : undefined;
// Short blocks, many rounds: this machine's pauses (a few per hundred calls, 1-15 ms, whoever is
// called) come in bursts, and short blocks share them out evenly. Over stdio 600 rounds (6 000
// calls a side: the p99 is the 60 slowest) after 600 warm-up calls each; over HTTP, where a round
// trip costs four or five times as much, 300 (3 000 a side, the 30 slowest). Each call now takes
// turns between raider, the bare server, the few-byte echo (a fifth of the rounds, for
// information) and in the 2025 era today's v1 server: that keeps the whole bench within minutes.
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 600);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 10);
const HTTP_WARM_UP = Number(process.env.BENCH_HTTP_WARM_UP ?? 300);
const HTTP_ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 300);
/** Cold starts a side (the first, which fills the disk cache, is dropped). */
const STARTS = Number(process.env.BENCH_STARTS ?? 9);
/** BENCH_ERAS=legacy or modern measures one era's round trips and cold starts. */
const ERAS = (process.env.BENCH_ERAS ?? 'legacy,modern').split(',');
// Where taskset exists: this client runs on core 0 and every server on core 1, the same core for
// each, so none gets an advantage the others lack (a server that shares the client's core
// answers a small call faster: no wake-up across cores). The bench re-runs itself pinned.
const taskset = existsSync('/usr/bin/taskset') ? ['/usr/bin/taskset', '-c'] : undefined;
if (taskset && !process.env.BENCH_PINNED) {
  const { status } = spawnSync(taskset[0], [taskset[1], '0', process.execPath, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  process.exit(status ?? 1);
}
const SERVER_CORE = 1;
const command = (script, args, core, nodeFlags = []) =>
  taskset
    ? [taskset[0], [taskset[1], String(core), process.execPath, ...nodeFlags, script, ...args]]
    : [process.execPath, [...nodeFlags, script, ...args]];

/**
 * The SDK's stdio client transport, noting when the bytes of the latest message were all in: the
 * time the server's answer took to arrive, before this client decodes it (JSON.parse and the
 * SDK's checks, the same for any server that sends the same bytes).
 */
class TimedStdioClientTransport extends StdioClientTransport {
  receivedAt = 0n;
  processReadBuffer() {
    this.receivedAt = process.hrtime.bigint();
    super.processReadBuffer();
  }
}

/** A client of `era`: the v1 client (2025 era), or the v2 client pinned to 2026-07-28. */
function newClient(era) {
  return era === 'modern'
    ? new ModernClient({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    : new Client({ name: 'bench', version: '1.0.0' });
}

async function connect(client, transport, era) {
  await client.connect(transport);
  if (era === 'modern' && client.getProtocolEra() !== 'modern') throw new Error('the 2026 era was not negotiated');
  return client;
}

async function stdioClient(script, args, core, { era = 'legacy', Transport } = {}) {
  const [cmd, argv] = command(script, args, core);
  const Chosen = Transport ?? (era === 'modern' ? ModernStdioClientTransport : StdioClientTransport);
  const transport = new Chosen({
    command: cmd,
    args: argv,
    env: { PATH: process.env.PATH, RAIDER_LOG_LEVEL: 'error' },
    stderr: 'ignore',
  });
  const client = await connect(newClient(era), transport, era);
  return { client, transport, close: () => client.close() };
}

/** Starts `script` over HTTP (port 0) and waits for its URL, logged as `listening on URL`. */
async function startHttpServer(script, args, core, nodeFlags = []) {
  const [cmd, argv] = command(
    script,
    [...args, '--http', ...(script === ECHO ? [] : ['--port', '0'])],
    core,
    nodeFlags,
  );
  const child = spawn(cmd, argv, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH, RAIDER_LOG_LEVEL: 'info' },
  });
  const url = await new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk) => {
      log += chunk;
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(log);
      if (match) {
        child.stderr.off('data', onData);
        child.stderr.resume();
        resolve(match[1]);
      }
    };
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${log}`)));
  });
  return { child, url };
}

async function httpClient(script, args, core, { era = 'legacy' } = {}) {
  const { child, url } = await startHttpServer(script, args, core);
  const Transport = era === 'modern' ? ModernHttpClientTransport : StreamableHTTPClientTransport;
  const client = await connect(newClient(era), new Transport(new URL(url)), era);
  return {
    client,
    pid: child.pid,
    url,
    close: async () => {
      await client.close();
      child.kill();
    },
  };
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

/**
 * Blocks of BLOCK calls of each participant in turn (`{ name, call, every }`: one that has
 * `every: 5` takes part in one round of five), after a warm-up of each (code compiled, caches
 * filled); who goes first moves round by round. p50 and p99 of each, in ms, by name.
 */
async function rotate(participants, rounds = ROUNDS, warmUp = WARM_UP) {
  for (let i = 0; i < warmUp; i += 1) {
    for (const { call, every = 1 } of participants) if (i % every === 0) await call();
  }
  const samples = new Map(participants.map(({ name }) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let k = 0; k < participants.length; k += 1) {
      const { name, call, every = 1 } = participants[(round + k) % participants.length];
      if (round % every !== 0) continue;
      const own = samples.get(name);
      for (let i = 0; i < BLOCK; i += 1) own.push(await timed(call));
    }
  }
  return Object.fromEntries([...samples].map(([name, own]) => [name, [percentile(own, 50), percentile(own, 99)]]));
}

const rows = [];
const goal = (what, value, bar, detail = '') =>
  rows.push({ what, value: `${value.toFixed(2)}x${detail}`, bar: `<= ${bar}x`, met: value <= bar ? 'met' : 'NOT met' });
const info = (what, value) => rows.push({ what, value, bar: '', met: '(for information)' });
const ms = (a, b) => ` (${a.toFixed(3)} / ${b.toFixed(3)} ms)`;
const ERA_NAME = { legacy: '2025 era', modern: '2026 era' };
const V1_SKIPPED =
  'skipped: RAIDER_V1_CLI is not set (the dist/cli.js of the v1 server, built from 130379d in a worktree: README, "Cost")';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
/**
 * The bare server answering `answer` (echo-server.mjs --answer) under the name and version of
 * the server that gave it (a 2026-era answer carries them in `_meta`, which the SDK adds itself),
 * started by `start(args)`.
 */
async function bareAnswering(answer, serverInfo, start) {
  const { [SERVER_INFO]: _named, ...meta } = answer._meta ?? {};
  const { _meta, ...rest } = answer;
  const result = Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
  const dir = mkdtempSync(join(tmpdir(), 'raider-bench-'));
  const file = join(dir, 'answer.json');
  writeFileSync(file, JSON.stringify({ serverInfo, result }));
  try {
    // It reads the file as it starts, before it answers anything (a 2026-era client connects
    // over stdio without a word to the process it talks to: hence the call).
    const server = await start(['--answer', file]);
    await server.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    return server;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The calls measured, each made for one client: `make(client)` gives the call. */
const CALLS = {
  task_create: {
    family: 'tasks',
    make: (client) => () => client.callTool({ name: 'task_create', arguments: { subject: 'More', description: '' } }),
  },
  task_update: {
    family: 'tasks',
    make: (client) => {
      let flip = false;
      return () => {
        flip = !flip;
        return client.callTool({
          name: 'task_update',
          arguments: { taskId: '500', status: flip ? 'in_progress' : 'pending' },
        });
      };
    },
  },
  task_get: {
    family: 'tasks',
    make: (client) => () => client.callTool({ name: 'task_get', arguments: { taskId: '500' } }),
  },
  todo_get: {
    family: 'todo',
    make: (client) => () => client.callTool({ name: 'todo', arguments: { action: 'get', id: 500 } }),
  },
  todo_update: {
    family: 'todo',
    make: (client) => {
      let flip = false;
      return () => {
        flip = !flip;
        return client.callTool({
          name: 'todo',
          arguments: { action: 'update', id: 500, status: flip ? 'in_progress' : 'pending' },
        });
      };
    },
  },
};

/** Fills a server of `family` with 1 000 tasks. */
async function fill({ client }, family) {
  for (let i = 1; i <= 1000; i += 1) {
    if (family === 'tasks')
      await client.callTool({ name: 'task_create', arguments: { subject: `Task ${i}`, description: '' } });
    else await client.callTool({ name: 'todo', arguments: { action: 'create', subject: `Task ${i}` } });
  }
}

async function roundTrips(kind, era) {
  const connectTo = (script, args) => (kind === 'stdio' ? stdioClient : httpClient)(script, args, SERVER_CORE, { era });
  const familyArgs = { tasks: ['--max-tasks', '20000'], todo: ['--family', 'todo', '--max-tasks', '20000'] };
  const servers = [];
  const started = async (script, args) => {
    const server = await connectTo(script, args);
    servers.push(server);
    return server;
  };
  // raider, and in the 2025 era today's v1 server (when given), each with 1 000 tasks of each family.
  const raider = {};
  const v1 = {};
  const compared = {};
  for (const family of ['tasks', 'todo']) {
    raider[family] = await started(CLI, familyArgs[family]);
    await fill(raider[family], family);
    if (COMPARE_CLI) {
      compared[family] = await started(COMPARE_CLI, familyArgs[family]);
      await fill(compared[family], family);
    }
    if (era === 'legacy' && V1_CLI) {
      v1[family] = await started(V1_CLI, familyArgs[family]);
      await fill(v1[family], family);
    }
  }
  // Over HTTP in the 2025 era, for information: a `todo` list shared in memory (--list), as every
  // 2026-era list over HTTP is (the list's conversation outlives the requests).
  let shared;
  if (kind === 'http' && era === 'legacy') {
    shared = await started(CLI, [...familyArgs.todo, '--list', 'bench-shared']);
    await fill(shared, 'todo');
  }
  const echo = await started(ECHO, []);
  const echoCall = () => echo.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  const label = `${kind} ${ERA_NAME[era]}`;
  // Each call is compared with the bare SDK server answering the same bytes: its one tool
  // answers, whatever it is asked, the answer raider gave to that call. What the SDK spends on an
  // answer (its checks of a structured result on both sides, the JSON of a whole todo list: 49 kB
  // here, rpiv-todo's contract) is then the same on both sides, and the ratio is raider's own
  // cost. The few-byte echo is measured too, for what the answer itself costs.
  for (const [name, { family, make }] of Object.entries(CALLS)) {
    if (process.env.BENCH_CALLS && !process.env.BENCH_CALLS.split(',').includes(name)) continue;
    const call = make(raider[family].client);
    const answer = await call();
    const serverInfo = raider[family].client.getServerVersion();
    const bare = await bareAnswering(answer, serverInfo, (args) => started(ECHO, args));
    const bareCall = () => bare.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    const bareAnswer = await bareCall();
    if (JSON.stringify(bareAnswer) !== JSON.stringify(answer))
      throw new Error(`the bare answer differs: ${JSON.stringify(bareAnswer)} / ${JSON.stringify(answer)}`);
    const participants = [
      { name: 'raider', call },
      { name: 'bare', call: bareCall },
      { name: 'echo', call: echoCall, every: 5 },
    ];
    if (v1[family]) {
      // Both made the same calls so far (the same lists), and make the same from here.
      const v1Call = make(v1[family].client);
      const v1Answer = await v1Call();
      if (JSON.stringify(v1Answer) !== JSON.stringify(answer))
        info(`${label} ${name}: the v1 server answers other bytes`, `${JSON.stringify(v1Answer).slice(0, 80)}…`);
      participants.push({ name: 'v1', call: v1Call });
    }
    if (compared[family]) participants.push({ name: 'compared', call: make(compared[family].client) });
    if (shared && name === 'todo_get') participants.push({ name: 'shared', call: make(shared.client), every: 5 });
    const result = kind === 'http' ? await rotate(participants, HTTP_ROUNDS, HTTP_WARM_UP) : await rotate(participants);
    const [own, same, few] = [result.raider, result.bare, result.echo];
    const what = `${label} ${name} (1 000 tasks) / the bare v2 server answering the same bytes`;
    goal(`${what}, p50`, own[0] / same[0], 1.15, ms(own[0], same[0]));
    goal(`${what}, p99`, own[1] / same[1], 1.15, ms(own[1], same[1]));
    if (result.v1) {
      const old = result.v1;
      goal(`${label} ${name} (1 000 tasks) / today's v1 server, p50`, own[0] / old[0], 1.1, ms(own[0], old[0]));
      goal(`${label} ${name} (1 000 tasks) / today's v1 server, p99`, own[1] / old[1], 1.1, ms(own[1], old[1]));
      info(
        `${label} ${name}: the bare v2 server / today's v1 server (what SDK v2 itself costs), p50 and p99`,
        `${(same[0] / old[0]).toFixed(2)}x, ${(same[1] / old[1]).toFixed(2)}x${ms(same[0], old[0])}`,
      );
    }
    if (result.compared) {
      const other = result.compared;
      info(
        `${label} ${name}: RAIDER_COMPARE_CLI's build / the bare v2 server, p50 and p99 (this build / it)`,
        `${(other[0] / same[0]).toFixed(2)}x, ${(other[1] / same[1]).toFixed(2)}x${ms(other[0], same[0])} (${(own[0] / other[0]).toFixed(2)}x, ${(own[1] / other[1]).toFixed(2)}x)`,
      );
    }
    if (result.shared) {
      info(
        `${label} ${name} (1 000 tasks) on a list shared in memory (--list) / on the session's own list, p50 and p99`,
        `${(result.shared[0] / own[0]).toFixed(2)}x, ${(result.shared[1] / own[1]).toFixed(2)}x${ms(result.shared[0], own[0])}`,
      );
    }
    info(
      `${label} ${name} (1 000 tasks) / the few-byte echo, p50 and p99`,
      `${(own[0] / few[0]).toFixed(2)}x, ${(own[1] / few[1]).toFixed(2)}x${ms(own[0], few[0])}`,
    );
  }
  if (era === 'legacy' && !V1_CLI) info(`${label}: round trips against today's v1 server`, V1_SKIPPED);
  await Promise.all(servers.map((server) => server.close()));
}

/**
 * Spawn to the first answered call (the connect included: `initialize`, or the v2 client's
 * `server/discover`, which over stdio it sends to a sibling process it spawns first), per
 * transport and era: raider (task_list), the bare server (echo), and in the 2025 era today's v1
 * server (task_list). Medians, the first start of each dropped.
 */
async function coldStarts(kind) {
  for (const era of ERAS) {
    const connectTo = (script) => (kind === 'stdio' ? stdioClient : httpClient)(script, [], SERVER_CORE, { era });
    const participants = [
      { name: 'raider', script: CLI, tool: 'task_list', arguments: {} },
      { name: 'bare', script: ECHO, tool: 'echo', arguments: { text: 'hi' } },
    ];
    if (era === 'legacy' && V1_CLI) participants.push({ name: 'v1', script: V1_CLI, tool: 'task_list', arguments: {} });
    const samples = new Map(participants.map(({ name }) => [name, []]));
    for (let i = 0; i < STARTS; i += 1) {
      for (let k = 0; k < participants.length; k += 1) {
        const { name, script, tool, arguments: args } = participants[(i + k) % participants.length];
        let server;
        samples.get(name).push(
          await timed(async () => {
            server = await connectTo(script);
            await server.client.callTool({ name: tool, arguments: args });
          }),
        );
        await server.close();
      }
    }
    const median = (name) => percentile(samples.get(name).slice(1), 50);
    const label = `${kind} ${ERA_NAME[era]}: cold start, spawn to the first answered call (median)`;
    goal(
      `${label} / the bare v2 server`,
      median('raider') / median('bare'),
      1.15,
      ms(median('raider'), median('bare')),
    );
    if (samples.has('v1'))
      goal(`${label} / today's v1 server`, median('raider') / median('v1'), 1.1, ms(median('raider'), median('v1')));
    else if (era === 'legacy') info(`${kind} ${ERA_NAME[era]}: cold start against today's v1 server`, V1_SKIPPED);
  }
}

/**
 * The 2026 era's cost per request over HTTP, the server's side (per-request.mjs, in its own
 * process on the servers' core): raider's per-list `createMcpHandler` against a bare one.
 */
async function perRequest() {
  const [cmd, argv] = command(PER_REQUEST, [], SERVER_CORE);
  const run = spawnSync(cmd, argv, { encoding: 'utf8', env: process.env, maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`per-request.mjs failed: ${run.stderr}`);
  for (const { tool, stats, factoryMs } of JSON.parse(run.stdout.trim().split('\n').at(-1))) {
    const { raider, bare, longLived, other } = stats;
    const what = `2026 era over HTTP, server side in process (handler.fetch): ${tool} (1 000 tasks) / a bare createMcpHandler answering the same bytes`;
    goal(`${what}, p50`, raider[0] / bare[0], 1.3, ms(raider[0], bare[0]));
    goal(`${what}, p99`, raider[1] / bare[1], 1.3, ms(raider[1], bare[1]));
    info(
      `the same: building the server per request (the factory, mean); the bare handler with one long-lived server (p50)`,
      `raider ${factoryMs.raider.toFixed(3)} ms, bare ${factoryMs.bare.toFixed(3)} ms; ${longLived[0].toFixed(3)} ms (bare per request ${bare[0].toFixed(3)} ms)`,
    );
    if (other) {
      info(
        `the same, RAIDER_COMPARE_DIST's build / a bare createMcpHandler, p50 and p99 (its factory, mean)`,
        `${(other[0] / bare[0]).toFixed(2)}x, ${(other[1] / bare[1]).toFixed(2)}x${ms(other[0], bare[0])} (${factoryMs.other.toFixed(3)} ms)`,
      );
    }
  }
}

async function flatUpdates() {
  const median = async (size) => {
    const s = await stdioClient(CLI, ['--max-tasks', '20000'], SERVER_CORE);
    for (let i = 1; i <= size; i += 1)
      await s.client.callTool({ name: 'task_create', arguments: { subject: `T${i}`, description: '' } });
    const samples = [];
    for (let i = 0; i < 400; i += 1) {
      samples.push(
        await timed(() =>
          s.client.callTool({
            name: 'task_update',
            arguments: { taskId: '50', status: i % 2 ? 'pending' : 'in_progress' },
          }),
        ),
      );
    }
    await s.close();
    return percentile(samples.slice(50), 50);
  };
  goal('task_update at 10 000 tasks / at 100 (p50)', (await median(10_000)) / (await median(100)), 1.5);
}

async function todoDetails() {
  const size = 10_000;
  const tasks = Array.from({ length: size }, (_, i) => ({ id: i + 1, subject: `Task ${i + 1}`, status: 'pending' }));
  const tool = new TodoTool({ snapshot: { tasks, nextId: size + 1 }, limits: { maxTasks: 20_000 } });
  const floor = [];
  for (let i = 0; i < 60; i += 1)
    floor.push(await timed(async () => JSON.stringify(tool.call({ action: 'get', id: 5000 }).details)));
  const s = await stdioClient(CLI, ['--family', 'todo', '--max-tasks', '20000'], SERVER_CORE, {
    Transport: TimedStdioClientTransport,
  });
  for (let i = 1; i <= size; i += 1)
    await s.client.callTool({ name: 'todo', arguments: { action: 'create', subject: `Task ${i}` } });
  const get = () => s.client.callTool({ name: 'todo', arguments: { action: 'get', id: 5000 } });
  const bare = await bareAnswering(await get(), s.client.getServerVersion(), (args) =>
    stdioClient(ECHO, args, SERVER_CORE, { Transport: TimedStdioClientTransport }),
  );
  const bareGet = () => bare.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  /** [answer received, whole call] in ms: the server's part, and with this client's decode. */
  const sample = async (client, call) => {
    const start = process.hrtime.bigint();
    await call();
    const end = process.hrtime.bigint();
    return [Number(client.transport.receivedAt - start) / 1e6, Number(end - start) / 1e6];
  };
  const raider = [];
  const same = [];
  for (let i = 0; i < 120; i += 1) {
    raider.push(await sample(s, get));
    same.push(await sample(bare, bareGet));
  }
  await Promise.all([s.close(), bare.close()]);
  const median = (samples, at) =>
    percentile(
      samples.slice(20).map((x) => x[at]),
      50,
    );
  const floorMs = percentile(floor.slice(10), 50);
  goal(
    'todo get over MCP at 10 000 tasks, answer received / call() + JSON of details',
    median(raider, 0) / floorMs,
    2,
    ms(median(raider, 0), floorMs),
  );
  info(
    'the same, with this client decoding the 490 kB (JSON.parse, the SDK checks)',
    `${(median(raider, 1) / floorMs).toFixed(2)}x${ms(median(raider, 1), floorMs)}`,
  );
  info(
    'the same whole call, against the bare SDK server answering the same 490 kB',
    `${(median(raider, 1) / median(same, 1)).toFixed(2)}x${ms(median(raider, 1), median(same, 1))}`,
  );
}

const REPORT = fileURLToPath(new URL('./report-memory.mjs', import.meta.url));

/** The server's memory after a full garbage collection (it runs with report-memory.mjs loaded). */
async function memoryOf(server) {
  const report = new Promise((resolve) => {
    const onData = (chunk) => {
      const match = /memory (\{.*\})/.exec(String(chunk));
      if (match) {
        server.stderr.off('data', onData);
        resolve(JSON.parse(match[1]));
      }
    };
    server.stderr.on('data', onData);
  });
  process.kill(server.pid, 'SIGUSR2');
  return report;
}

/** Starts `script` over HTTP with the memory report loaded; its URL and process. */
async function httpWithMemoryReport(script, args) {
  const [cmd, argv] = command(script, [...args, '--http'], SERVER_CORE, ['--expose-gc', '--import', REPORT]);
  const child = spawn(cmd, argv, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH, RAIDER_LOG_LEVEL: 'info' },
  });
  const url = await new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk) => {
      log += chunk;
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(log);
      if (match) {
        child.stderr.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${log}`)));
  });
  return { child, url };
}

/** Opens `n` sessions on `url`, each answering one call; returns the clients. */
async function openSessions(url, n, call) {
  const clients = [];
  for (let i = 0; i < n; i += 1) {
    const client = new Client({ name: `idle-${i}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await call(client);
    clients.push(client);
  }
  return clients;
}

/** Heap (after GC) and RSS growth per idle session of the server `script`, in kB, over 200 sessions. */
async function perIdleSession(script, args, call) {
  const { child, url } = await httpWithMemoryReport(script, args);
  // Warm up (code compiled, pools made), then the growth of 200 more idle sessions.
  const warm = await openSessions(url, 20, call);
  const before = await memoryOf(child);
  const idle = await openSessions(url, 200, call);
  const after = await memoryOf(child);
  await Promise.all([...warm, ...idle].map((c) => c.close()));
  return {
    child,
    url,
    heap: (after.heapUsed - before.heapUsed) / 200 / 1024,
    rss: (after.rss - before.rss) / 200 / 1024,
  };
}

async function idleSessions() {
  const bare = await perIdleSession(ECHO, [], (client) => client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
  bare.child.kill();
  const raider = await perIdleSession(CLI, ['--port', '0', '--max-sessions', '1000'], (client) =>
    client.callTool({ name: 'task_list', arguments: {} }),
  );
  rows.push({
    what: 'an idle HTTP session: heap after GC (RSS), against the bare SDK server',
    value: `${raider.heap.toFixed(0)} kB (RSS ${raider.rss.toFixed(0)} kB); bare ${bare.heap.toFixed(0)} kB (RSS ${bare.rss.toFixed(0)} kB)`,
    bar: '<= 100 kB',
    met: raider.heap <= 100 ? 'met' : 'NOT met',
  });

  // 100 sessions x 100 calls that do not grow the lists (a status flipped): no error, and the memory
  // after the second 50 calls as after the first (no leak per call).
  const busy = await openSessions(raider.url, 100, (client) =>
    client.callTool({ name: 'task_create', arguments: { subject: 'Flip me', description: '' } }),
  );
  let errors = 0;
  const calls = async (n) =>
    Promise.all(
      busy.map(async (client) => {
        for (let i = 0; i < n; i += 1) {
          const status = i % 2 ? 'pending' : 'in_progress';
          const result = await client
            .callTool({ name: 'task_update', arguments: { taskId: '1', status } })
            .catch(() => ({ isError: true }));
          if (result.isError) errors += 1;
        }
      }),
    );
  await calls(50);
  const middle = await memoryOf(raider.child);
  await calls(50);
  const end = await memoryOf(raider.child);
  rows.push({
    what: '100 sessions x 100 calls: errors; RSS after the second 50 / after the first 50',
    value: `${errors} errors; ${(end.rss / middle.rss).toFixed(2)}x (${(middle.rss / 1048576).toFixed(0)} -> ${(end.rss / 1048576).toFixed(0)} MB)`,
    bar: '0 errors; stable',
    met: errors === 0 && end.rss / middle.rss <= 1.1 ? 'met' : 'NOT met',
  });
  await Promise.all(busy.map((c) => c.close()));
  raider.child.kill();
}

// BENCH_ONLY=name[,name] runs some parts (stdio, http, start, perrequest, flat, todo, sessions).
const parts = {
  stdio: async () => {
    for (const era of ERAS) await roundTrips('stdio', era);
  },
  http: async () => {
    for (const era of ERAS) await roundTrips('http', era);
  },
  start: async () => {
    await coldStarts('stdio');
    await coldStarts('http');
  },
  perrequest: perRequest,
  flat: flatUpdates,
  todo: todoDetails,
  sessions: idleSessions,
};
const only = process.env.BENCH_ONLY?.split(',');
if (!V1_CLI) console.log(`today's v1 server: ${V1_SKIPPED}`);
const began = Date.now();
for (const [name, part] of Object.entries(parts)) {
  if (only && !only.includes(name)) continue;
  const start = Date.now();
  await part();
  console.log(`${name}: ${((Date.now() - start) / 1000).toFixed(0)} s`);
}
console.table(rows);
console.log(`${((Date.now() - began) / 1000).toFixed(0)} s in all`);
