// Cross-process latency of a message: process A sends to agent b, whose process B waits on a
// watch, takes it and sends it back to a, whose watch wakes A, which takes it: half that round
// trip is one message's way. Against the floor: a bare append to a file, seen by an fs.watch
// watcher in the other process (and the same with an fsync, what one durable write costs).
// Run with `pnpm --filter @raider/file-store bench` (outside `pnpm test`); p50/p99 printed at the end.
import {
  closeSync,
  fsyncSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, bench, describe } from 'vitest';
import type { WorkerLine } from '../../test/message-worker.js';
import { startWorker } from '../../test/message-worker-script.js';
import { openTaskFolder } from '../index.js';

const root = mkdtempSync(join(tmpdir(), 'raider-message-bench-'));
const isReady = (line: WorkerLine): line is { ready: true } => 'ready' in line;
const OPTIONS = { time: 8_000, warmupTime: 1_000 };

/** One-way times (half a round trip, ms) by bench; the parts' own times. */
const samples = new Map<string, number[]>();
const record = (name: string, start: number, share = 0.5) => {
  const list = samples.get(name) ?? [];
  list.push((performance.now() - start) * share);
  samples.set(name, list);
};
const percentile = (sorted: number[], fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;

/** A file the other process appends to on each append to another, seen both ways by fs.watch. */
async function fileRoundTrip(name: string, fsync: boolean) {
  const input = join(root, `${name}-to-b`);
  const output = join(root, `${name}-to-a`);
  writeFileSync(input, '');
  writeFileSync(output, '');
  const worker = await startWorker({ mode: 'file-echo', input, output, fsync });
  await worker.waitFor(isReady);
  let arrived: (() => void) | undefined;
  let lines = 0;
  // The trip ends when the line sent back for this one is there (not at an event for an earlier one).
  const watcher = watch(output, () => {
    if (statSync(output).size >= lines * 2) arrived?.();
  });
  const fd = openSync(input, 'a');
  return {
    trip: async () => {
      lines += 1;
      const start = performance.now();
      const back = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      writeSync(fd, '.\n');
      if (fsync) fsyncSync(fd);
      await back;
      record(name, start);
    },
    close: async () => {
      watcher.close();
      closeSync(fd);
      await worker.end();
    },
  };
}

/** A message to b in process B, sent back by B to a here: A waits on a watch for it. */
async function messageRoundTrip(name: string) {
  const path = join(root, 'list');
  const folder = openTaskFolder(path);
  const store = folder.messages;
  const worker = await startWorker({ mode: 'echo', path, agent: 'b' });
  await worker.waitFor(isReady);
  let expected: { text: string; resolve: () => void } | undefined;
  let draining = false;
  let again = false;
  // Takes what came for a (one take at a time; a call during one makes it look again after).
  const drain = async () => {
    if (draining) {
      again = true;
      return;
    }
    draining = true;
    do {
      again = false;
      const delivery = await store.take('a');
      for (const message of delivery.messages) if (message.text === expected?.text) expected.resolve();
      if (delivery.messages.length) await delivery.done();
    } while (again);
    draining = false;
  };
  const stop = store.watch('a', () => void drain());
  let count = 0;
  return {
    trip: async () => {
      count += 1;
      const text = String(count);
      const start = performance.now();
      const back = new Promise<void>((resolve) => {
        expected = { text, resolve };
      });
      await store.send({ to: 'b', from: 'a', text, notification: false });
      await back;
      record(name, start);
    },
    close: async () => {
      stop();
      folder.close();
      await worker.end();
    },
  };
}

const FLOOR = 'floor: a bare append seen by fs.watch in the other process';
const DURABLE_FLOOR = 'an append + fsync seen by fs.watch in the other process';
const MESSAGE = 'a message: send, watch in the other process, take';
const trips = {
  floor: await fileRoundTrip(FLOOR, false),
  durable: await fileRoundTrip(DURABLE_FLOOR, true),
  message: await messageRoundTrip(MESSAGE),
};

describe('one message from process A to an agent waiting in process B (half a round trip)', () => {
  bench(FLOOR, trips.floor.trip, OPTIONS);
  bench(DURABLE_FLOOR, trips.durable.trip, OPTIONS);
  bench(MESSAGE, trips.message.trip, OPTIONS);
});

// Where a message's time goes: its send (two fsyncs, the lock) and its take (the lock, a rename), in one process.
const local = openTaskFolder(join(root, 'local')).messages;
const SEND = 'a send alone (write, link, fsync of the file and the inbox folder)';
const TAKE = 'a take of one message alone (the lock, a read, a rename), after its send';
describe('the parts, in one process', () => {
  bench(
    SEND,
    async () => {
      const start = performance.now();
      await local.send({ to: 'c', text: 'x', notification: false });
      record(SEND, start, 1);
      await (await local.take('c')).done();
    },
    OPTIONS,
  );
  bench(
    TAKE,
    async () => {
      await local.send({ to: 'd', text: 'x', notification: false });
      const start = performance.now();
      const delivery = await local.take('d');
      record(TAKE, start, 1);
      await delivery.done();
    },
    OPTIONS,
  );
});

afterAll(async () => {
  for (const trip of Object.values(trips)) await trip.close();
  rmSync(root, { recursive: true, force: true });
  const floor = [...(samples.get(FLOOR) ?? [])].sort((a, b) => a - b);
  const lines = [...samples].map(([name, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const p50 = percentile(sorted, 0.5);
    return `${name}: p50 ${p50.toFixed(3)} ms, p99 ${percentile(sorted, 0.99).toFixed(3)} ms (${sorted.length} samples; p50 ${(p50 / percentile(floor, 0.5)).toFixed(1)}x the floor)`;
  });
  console.info(`\none-way latency (half a round trip; the parts: their own time):\n${lines.join('\n')}`);
});
