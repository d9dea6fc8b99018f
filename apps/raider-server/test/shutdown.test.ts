import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { readOptions, startHttp } from '../src/index.js';
import { CLI, textOf } from './helpers.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts the built server with --http on a free port; resolves with its URL from the log. */
async function spawnHttp(args: string[] = []) {
  const child = spawn(process.execPath, [CLI, '--http', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '' },
  });
  children.push(child);
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(log);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${log}`)));
  });
  return { child, url, log: () => log };
}

/** An HTTP client whose user never answers; `asked` resolves when a question arrives. */
async function patientClient(url: string) {
  const client = new Client({ name: 'patient', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  let cancelled = false;
  let asked: () => void = () => {};
  const questionArrived = new Promise<void>((resolve) => {
    asked = resolve;
  });
  let calls = 0;
  client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
    calls += 1;
    // The first server-to-client request has id 0, whose cancellation an SDK client ignores.
    if (calls === 1) return { action: 'accept', content: { answer: 'warm-up' } };
    extra.signal.addEventListener('abort', () => {
      cancelled = true;
    });
    asked();
    return new Promise(() => {});
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.callTool({ name: 'ask_user', arguments: { question: 'warm-up?' } });
  return { client, questionArrived, cancelled: () => cancelled };
}

/** The tasks saved in a list folder (every task file parses). */
function savedTasks(folder: string): { id: string; subject: string }[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => /^\d+\.json$/.test(name))
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as { id: string; subject: string });
}

describe('shutdown', () => {
  it('SIGTERM with a question open: the question ends as withdrawn and the process exits 0', async () => {
    const { child, url } = await spawnHttp();
    const { client, questionArrived, cancelled } = await patientClient(url);
    const call = client.callTool({ name: 'ask_user', arguments: { question: 'Deploy now?' } });
    await questionArrived;
    const started = Date.now();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'The question was withdrawn: the server is shutting down. Decide for yourself, go on, and say in your reply what you assumed.',
    );
    const [code] = await exited;
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(cancelled()).toBe(true);
  });

  it('SIGTERM during 300 pipelined stdio calls: what was saved was answered, no lock left, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raider-shutdown-'));
    const child = spawn(process.execPath, [CLI, '--data-dir', dir, '--list', 'team'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
    });
    children.push(child);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    for (let i = 1; i <= 300; i += 1) {
      send({
        id: i,
        method: 'tools/call',
        params: { name: 'task_create', arguments: { subject: `T${i}`, description: '' } },
      });
    }
    // Terminate once a few creates are acknowledged, with many still queued or in flight.
    await expect
      .poll(() => (stdout.match(/created successfully/g) ?? []).length, { timeout: 30_000 })
      .toBeGreaterThan(3);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const answers = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; result?: { content?: { text: string }[] } });
    const acknowledged = new Set(
      answers.flatMap((a) => {
        const match = /^Task #(\d+) created successfully: (T\d+)$/.exec(a.result?.content?.[0]?.text ?? '');
        return match ? [`${match[1]}=${match[2]}`] : [];
      }),
    );
    const saved = savedTasks(join(dir, 'team'));
    // Nothing saved without an answer (a client retrying would duplicate it), nothing answered unsaved.
    expect(new Set(saved.map((t) => `${t.id}=${t.subject}`))).toEqual(acknowledged);
    // The list lock (`.lock`, an empty file as Claude Code keeps it) is not held: no `.lock.lock`.
    expect(readdirSync(join(dir, 'team')).filter((name) => name === '.lock.lock' || name.endsWith('.tmp'))).toEqual([]);
  }, 60_000);

  it('SIGTERM with HTTP calls in flight: each gets its real answer, not an empty 200', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'raider-shutdown-http-'));
    const { child, url } = await spawnHttp(['--data-dir', dir, '--list', 'team']);
    const client = new Client({ name: 'busy', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    let settled = 0;
    const calls = Array.from({ length: 40 }, (_, i) =>
      client
        .callTool({ name: 'task_create', arguments: { subject: `H${i}`, description: 'x'.repeat(2000) } })
        .then(
          (result) => textOf(result) ?? '',
          (error: Error) => `failed: ${error.message}`,
        )
        .finally(() => {
          settled += 1;
        }),
    );
    // Terminate once the first call is answered, the others in flight or queued, however busy the machine.
    await expect.poll(() => settled, { timeout: 30_000, interval: 2 }).toBeGreaterThan(0);
    // Listen for the exit before the signal: it may come while the calls are still settling.
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const texts = await Promise.all(calls);
    const [code] = await exited;
    expect(code).toBe(0);
    const answered = texts.filter((text) => /^Task #\d+ created successfully: H\d+$/.test(text));
    // Calls refused at the door say so (503); none is left without an answer.
    for (const text of texts)
      expect(text === '' ? 'an empty answer' : text).toMatch(
        /created successfully|failed: .*(503|shutting down|fetch failed|ECONNREFUSED|terminated|closed)/,
      );
    expect(savedTasks(join(dir, 'team'))).toHaveLength(answered.length);
  }, 60_000);

  it('a session with a question in flight is not idle', async () => {
    const options = { ...readOptions(['--http', '--port', '0'], {}), idleTimeoutMs: 100 };
    const server = await startHttp(options);
    try {
      const { client, questionArrived } = await patientClient(server.url);
      const call = client.callTool({ name: 'ask_user', arguments: { question: 'Still thinking?' } });
      await questionArrived;
      await new Promise((r) => setTimeout(r, 400));
      expect(server.sessions.size).toBe(1);
      void call.catch(() => {});
      await client.close();
    } finally {
      await server.close();
    }
  });
});

describe('the command line', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c));
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('--help and --version', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: raider-server [options]');
    for (const variable of ['RAIDER_FAMILY', 'RAIDER_NAMES', 'RAIDER_PORT', 'RAIDER_TOKEN', 'RAIDER_LOG_LEVEL']) {
      expect(help.stdout).toContain(variable);
    }
    const version = await run(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a bad flag or value says what is wrong and exits 2', async () => {
    const bad = await run(['--family', 'kanban']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--family: expected one of tasks, todo_write, todo, received "kanban"');
    const env = await run([], { RAIDER_PORT: 'eighty' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('RAIDER_PORT: expected a whole number from 0 to 65535, received "eighty"');
    expect((await run(['--nope'])).code).toBe(2);
    const open = await run(['--http', '--host', '0.0.0.0']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('expected a bearer token');
  });
});
