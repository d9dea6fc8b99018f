// test/message-worker.ts as a script node runs alone: bundled once per test process with esbuild
// (its sources are TypeScript), into a temporary folder removed at exit.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { WorkerCommand, WorkerLine } from './message-worker.js';

let script: Promise<string> | undefined;

/** The bundled worker's path (built at the first call). */
export function workerScript(): Promise<string> {
  script ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raider-message-worker-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = join(dir, 'message-worker.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('./message-worker.ts', import.meta.url))],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      // proper-lockfile (CommonJS) requires node's modules: give the bundle a require.
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    return outfile;
  })();
  return script;
}

/** A running worker: the lines it printed so far, a wait for one, its end. */
export interface Worker {
  readonly pid: number;
  readonly lines: WorkerLine[];
  /** Resolves with the first line (printed so far or later) that `match` picks; rejects if the worker exits first. */
  waitFor<T extends WorkerLine>(match: (line: WorkerLine) => line is T): Promise<T>;
  /** Ends its stdin (it finishes and exits) and resolves with its exit code. */
  end(): Promise<number | null>;
  /** kill -9, and resolves once it is gone. */
  kill(): Promise<void>;
}

/** Starts a worker process on `command`. */
export async function startWorker(command: WorkerCommand): Promise<Worker> {
  const child = spawn(process.execPath, [await workerScript(), JSON.stringify(command)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: WorkerLine[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) if (part) lines.push(JSON.parse(part) as WorkerLine);
    for (const waiter of [...waiters]) waiter();
  });
  // 'close', not 'exit': every line it printed has been read by then.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => {
    gone = true;
    for (const waiter of [...waiters]) waiter();
  });
  return {
    pid: child.pid as number,
    lines,
    waitFor: (match) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const found = lines.find(match);
          if (found) {
            waiters.delete(look);
            resolve(found);
          } else if (gone) {
            waiters.delete(look);
            reject(new Error(`the worker exited first; it printed ${JSON.stringify(lines).slice(0, 2000)}`));
          }
        };
        waiters.add(look);
        look();
      }),
    end: async () => {
      child.stdin.end();
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
