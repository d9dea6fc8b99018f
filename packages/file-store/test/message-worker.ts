// A process of its own on a list folder's inboxes, for the real-process tests and the bench
// (bundled by test/message-worker-script.ts, run as `node worker.mjs '<command as JSON>'`). It
// prints one JSON line on stdout per thing it did, and ends when its stdin ends.
import { fsyncSync, openSync, statSync, watch as watchFile, writeSync } from 'node:fs';
import type { MessageStore, StoredMessage } from '@raider/tasks-registry';
import { openTaskFolder } from '../src/index.js';

/** What a worker is told to do. */
export type WorkerCommand =
  /** Sends `count` messages to `to` (texts `<from>:<n>`), one every `pauseMs`, while taking for `agent`. */
  | { mode: 'agent'; path: string; from: string; to: string; count: number; pauseMs: number; agent: string }
  /** Takes once for `agent` (waiting until something comes) with `leaseMs`, prints it, then waits to be killed. */
  | { mode: 'hold'; path: string; agent: string; leaseMs: number }
  /** Sends to `to` without end (texts `<n>`), one after another, until killed. */
  | { mode: 'flood'; path: string; to: string }
  /** The bench's far end: each message taken for `agent` is sent back to its sender, then done. */
  | { mode: 'echo'; path: string; agent: string }
  /** The bench's floor: each append to `input` seen by fs.watch appends a line to `output` (fsynced when `fsync`). */
  | { mode: 'file-echo'; input: string; output: string; fsync: boolean };

/** What a worker prints, one JSON line each. */
export type WorkerLine =
  | { ready: true }
  | { sent: StoredMessage }
  | { took: StoredMessage[]; until?: number }
  | { problem: string }
  | { failed: string };

const print = (line: WorkerLine) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const command = JSON.parse(process.argv[2] as string) as WorkerCommand;
let ended = false;
process.stdin.on('end', () => {
  ended = true;
});
process.stdin.resume();

/** Resolves at the next watch call for `agent`, or after `ms` (a safety net: the watch is what is tested elsewhere). */
function wakeUp(store: MessageStore, agent: string): { next: (ms: number) => Promise<void>; stop: () => void } {
  let resolveNext: (() => void) | undefined;
  let pending = false;
  const stop = store.watch(agent, () => {
    pending = true;
    resolveNext?.();
  });
  return {
    next: async (ms) => {
      if (pending) {
        pending = false;
        return;
      }
      await new Promise<void>((resolve) => {
        resolveNext = resolve;
        setTimeout(resolve, ms).unref();
      });
      resolveNext = undefined;
      pending = false;
    },
    stop,
  };
}

/** Takes for `agent` until stdin ends: each delivery done, then printed. */
async function takeAll(store: MessageStore, agent: string): Promise<void> {
  const wake = wakeUp(store, agent);
  while (!ended) {
    const delivery = await store.take(agent, { max: 4, leaseMs: 30_000 });
    if (delivery.messages.length === 0) {
      await wake.next(200);
      continue;
    }
    await delivery.done();
    print({ took: [...delivery.messages] });
  }
  wake.stop();
}

async function main(): Promise<void> {
  if (command.mode === 'file-echo') {
    const { input, output, fsync } = command;
    const fd = openSync(output, 'a');
    let seen = 0;
    // One line back for each line that came (fs.watch may merge two appends into one event, or split one).
    watchFile(input, () => {
      const size = statSync(input).size;
      if (size <= seen) return;
      writeSync(fd, '.\n'.repeat((size - seen) / 2));
      seen = size;
      if (fsync) fsyncSync(fd);
    });
    print({ ready: true });
    while (!ended) await sleep(100);
    process.exit(0);
  }
  const folder = openTaskFolder(command.path, { staleMs: 2000, onProblem: (problem) => print({ problem }) });
  const store = folder.messages;
  if (command.mode === 'agent') {
    print({ ready: true });
    const taking = takeAll(store, command.agent);
    for (let index = 1; index <= command.count; index += 1) {
      print({
        sent: await store.send({
          to: command.to,
          from: command.from,
          text: `${command.from}:${index}`,
          notification: false,
        }),
      });
      await sleep(Math.random() * command.pauseMs);
    }
    await taking;
  } else if (command.mode === 'hold') {
    const wake = wakeUp(store, command.agent);
    print({ ready: true });
    for (;;) {
      const until = Date.now() + command.leaseMs;
      const delivery = await store.take(command.agent, { leaseMs: command.leaseMs });
      if (delivery.messages.length) {
        print({ took: [...delivery.messages], until });
        break;
      }
      await wake.next(200);
    }
    // Killed here, holding the lease: no done, no release.
    for (;;) await sleep(1000);
  } else if (command.mode === 'flood') {
    print({ ready: true });
    for (let index = 1; ; index += 1) {
      print({ sent: await store.send({ to: command.to, text: String(index), notification: false }) });
    }
  } else {
    const wake = wakeUp(store, command.agent);
    print({ ready: true });
    while (!ended) {
      const delivery = await store.take(command.agent);
      for (const message of delivery.messages) {
        await store.send({ to: message.from as string, from: command.agent, text: message.text, notification: false });
      }
      if (delivery.messages.length) await delivery.done();
      else await wake.next(1000);
    }
  }
  folder.close();
  process.exit(0);
}

main().catch((error: unknown) => {
  print({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
