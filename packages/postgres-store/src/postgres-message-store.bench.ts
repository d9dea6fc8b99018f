// How soon a message sent by one server reaches a watcher on another, against two floors: a bare
// LISTEN/NOTIFY round trip between two connections, and the same NOTIFY sent by a durable write
// (one statement that inserts a row: its commit waits for the WAL to be flushed, as a send's does). Servers A and B are two openPostgresLists
// handles (each its own pool and LISTEN connection, as two processes have) on an embedded
// PostgreSQL 18 on loopback (or RAIDER_TEST_DATABASE_URL). Each iteration is timed on its own and
// the p50/p99 printed at the end (vitest bench's table times the whole iteration, the clean-up
// take included). Run with `pnpm --filter @raider/postgres-store bench`.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, bench, describe } from 'vitest';
import { startPostgres } from '../test/postgres-server.js';
import { openPostgresLists } from './index.js';

const started = process.env.RAIDER_TEST_DATABASE_URL ? undefined : await startPostgres();
const url = process.env.RAIDER_TEST_DATABASE_URL ?? (started?.url as string);
// No heartbeat during the run: every wake is a NOTIFY's.
const serverA = openPostgresLists({ connectionString: url, heartbeatMs: 600_000 });
const serverB = openPostgresLists({ connectionString: url, heartbeatMs: 600_000 });
const listId = `bench-${randomUUID()}`;
const sender = serverA.list(listId).messages;
const receiver = serverB.list(listId).messages;

/** The samples of each measure, in ms. */
const samples = new Map<string, number[]>();
function sample(name: string, ms: number): void {
  const list = samples.get(name) ?? [];
  list.push(ms);
  samples.set(name, list);
}

/** The `fraction` percentile of `values` (nearest rank). */
function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

// The floor: connection A NOTIFYs, connection B (LISTENing) hears it.
const notifier = new pg.Client({ connectionString: url });
const listener = new pg.Client({ connectionString: url });
await Promise.all([notifier.connect(), listener.connect()]);
await listener.query('LISTEN raider_bench_floor');
await notifier.query('CREATE TABLE IF NOT EXISTS raider_bench_floor (at timestamptz NOT NULL DEFAULT now())');
let heard: ((at: number) => void) | undefined;
listener.on('notification', () => heard?.(performance.now()));

// B's watcher: resolves the iteration's promise.
let woken: ((at: number) => void) | undefined;
const stopWatching = receiver.watch('bob', () => woken?.(performance.now()));
await sender.send({ to: 'bob', text: 'warm-up', notification: false });
await (await receiver.take('bob')).done();

afterAll(async () => {
  stopWatching();
  const lines = [...samples].map(([name, values]) => {
    // The first tenth is the warm-up.
    const kept = values.slice(Math.floor(values.length / 10));
    const p50 = percentile(kept, 0.5);
    const p99 = percentile(kept, 0.99);
    return `${name}: p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms (${kept.length} samples)`;
  });
  process.stderr.write(`\n${lines.join('\n')}\n`);
  await notifier.query('DROP TABLE raider_bench_floor');
  await Promise.all([notifier.end(), listener.end(), serverA.close(), serverB.close()]);
  await started?.destroy();
});

const options = { time: 5000, iterations: 300, warmupIterations: 0 };

/** The bare floor: a NOTIFY on A heard on B. */
async function bareFloor(): Promise<void> {
  const arrived = new Promise<number>((resolve) => {
    heard = resolve;
  });
  const start = performance.now();
  await notifier.query("NOTIFY raider_bench_floor, 'x'");
  sample('floor: NOTIFY -> heard on another connection', (await arrived) - start);
}

/** The durable floor: one statement on A writes a row and NOTIFYs, heard on B. */
async function durableFloor(): Promise<void> {
  const arrived = new Promise<number>((resolve) => {
    heard = resolve;
  });
  const start = performance.now();
  await notifier.query(
    "WITH written AS (INSERT INTO raider_bench_floor DEFAULT VALUES RETURNING 1) SELECT pg_notify('raider_bench_floor', 'x') FROM written",
  );
  sample('durable floor: a row written and NOTIFYed -> heard on another connection', (await arrived) - start);
}

/** A send on A, the watcher on B woken, B's take (then its done, untimed). */
async function message(): Promise<void> {
  const arrived = new Promise<number>((resolve) => {
    woken = resolve;
  });
  const start = performance.now();
  await sender.send({ to: 'bob', text: 'ping', notification: false });
  sample('send acknowledged on A', performance.now() - start);
  sample('send on A -> watcher on B woken', (await arrived) - start);
  const delivery = await receiver.take('bob');
  sample('send on A -> taken on B', performance.now() - start);
  if (delivery.messages.length !== 1) throw new Error(`expected 1 message, took ${delivery.messages.length}`);
  await delivery.done();
}

describe('cross-server latency of a message', () => {
  bench('floor: NOTIFY on connection A heard by LISTEN on connection B', bareFloor, options);
  bench('durable floor: one statement on A inserts a row and NOTIFYs, heard by LISTEN on B', durableFloor, options);
  bench('send on server A -> watcher on server B woken -> B takes it (and marks it done)', message, options);
  // The three in turn, so that the machine's load (a busy 2-core one) weighs on each alike: the
  // percentiles printed at the end are those of all the samples.
  bench(
    'one of each in turn',
    async () => {
      await bareFloor();
      await durableFloor();
      await message();
    },
    options,
  );
});
