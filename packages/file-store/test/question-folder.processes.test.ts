// Real processes on one list folder's questions (test/question-worker.ts, bundled): a process killed
// with SIGKILL right after its ask or its settle resolved leaves that question, whole, to a new
// handle, and nothing half-written is ever read as a question.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoredQuestion } from '@raider/tasks-registry';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { openTaskFolder } from '../src/index.js';
import { closedAfter, tempDir } from './cleanup.js';
import type { QuestionWorkerCommand, QuestionWorkerLine } from './question-worker.js';

let script: Promise<string> | undefined;

/** The bundled worker's path (built once per test process, removed at exit). */
function workerScript(): Promise<string> {
  script ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raider-question-worker-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = join(dir, 'question-worker.mjs');
    await build({
      entryPoints: [fileURLToPath(new URL('./question-worker.ts', import.meta.url))],
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

/** A worker running `command`: the lines it printed so far, and its kill -9. */
async function startWorker(command: QuestionWorkerCommand) {
  const child: ChildProcess = spawn(process.execPath, [await workerScript(), JSON.stringify(command)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: QuestionWorkerLine[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) if (part) lines.push(JSON.parse(part) as QuestionWorkerLine);
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    lines,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const askedBy = (lines: QuestionWorkerLine[]) => lines.flatMap((line) => ('asked' in line ? [line.asked] : []));

describe('a process killed with SIGKILL on the questions of a list', () => {
  it('right after asks resolved: every acknowledged question is there, whole, for a new handle; nothing half-written; ids go on above them', async () => {
    const path = join(tempDir(), 'list');
    const worker = await startWorker({ mode: 'ask', path });
    await expect.poll(() => askedBy(worker.lines).length, { timeout: 60_000, interval: 10 }).toBeGreaterThan(5);
    await worker.kill();
    const acknowledged = askedBy(worker.lines);
    expect(worker.lines.filter((line) => 'failed' in line)).toEqual([]);
    const problems: string[] = [];
    const { questions } = closedAfter(
      openTaskFolder(path, { staleMs: 2000, onProblem: (problem) => problems.push(problem) }),
    );
    for (const asked of acknowledged) expect(await questions.get(asked.id)).toEqual(asked);
    const open = await questions.open();
    // At most the one ask it was making when killed, there but not acknowledged.
    expect(open.slice(0, acknowledged.length)).toEqual(acknowledged);
    expect(open.length - acknowledged.length).toBeLessThanOrEqual(1);
    expect(open.map((question) => question.question)).toEqual(open.map((_, index) => String(index + 1)));
    // The lock it may have held goes stale; its temporary file is removed under the lock.
    const next = await questions.ask({ asker: 'ann', question: 'after', options: [], expiresAt: Date.now() + 60_000 });
    // Above every question there (the killed ask may have raised the mark before it linked its file in: a gap of one).
    expect(Number(next.id.slice(4))).toBeGreaterThan(open.length);
    expect(Number(next.id.slice(4))).toBeLessThanOrEqual(open.length + 2);
    expect(problems).toEqual([]);
    expect(
      readdirSync(join(path, '.questions')).filter((name) => name.endsWith('.tmp') && !name.startsWith('.holder.')),
    ).toEqual([]);
  }, 120_000);

  it('right after its settle resolved: the answer is on disk for a new handle, and a second settle is told it', async () => {
    const path = join(tempDir(), 'list');
    const asked = await closedAfter(openTaskFolder(path)).questions.ask({
      asker: 'bob',
      question: 'Ship it?',
      options: ['yes', 'no'],
      expiresAt: Date.now() + 3_600_000,
    });
    const worker = await startWorker({ mode: 'settle', path, id: asked.id });
    await expect.poll(() => worker.lines.length, { timeout: 60_000, interval: 10 }).toBeGreaterThan(0);
    await worker.kill();
    const line = worker.lines[0] as QuestionWorkerLine;
    expect('settled' in line && line.settled !== undefined && 'settled' in line.settled).toBe(true);
    const settled = (line as { settled: { settled: StoredQuestion } }).settled.settled;
    expect(settled).toMatchObject({ ...asked, state: 'answered', answer: 'yes', settledBy: 'worker' });
    const { questions } = closedAfter(openTaskFolder(path, { staleMs: 2000 }));
    expect(await questions.get(asked.id)).toEqual(settled);
    expect(await questions.settle(asked.id, { state: 'declined' })).toEqual({ already: settled });
  }, 120_000);
});
