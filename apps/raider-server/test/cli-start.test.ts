// The command line at start, as real processes (issue 36, what a person sees): a data dir that is
// a file, an unreachable database over stdio and over HTTP (and --wait-for-database), a taken
// port, an unknown flag, --help's headers, and the start-up line about lists without --list. Most
// processes exit by themselves within a second; one HTTP server is shared by two of the points.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, connect as dial, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { withTarget } from '../../../packages/postgres-store/test/postgres-faults.js';
import { freePort } from '../../../packages/postgres-store/test/postgres-server.js';
import { databaseTarget } from '../src/lists/database-check.js';
import { projectListId } from '../src/lists/project-list.js';
import { CLI, textOf } from './helpers.js';

const databaseUrl = inject('databaseUrl');
const env = { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'info' };

/** Runs the command until it exits: its exit code and what it wrote. */
function run(args: string[], extra: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The lines a process wrote on stderr so far, and a promise of the first that matches. */
function stderrOf(child: ChildProcess | StdioClientTransport) {
  const seen = { text: '' };
  const stream = child.stderr;
  stream?.on('data', (chunk: Buffer) => {
    seen.text += chunk.toString();
  });
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const found = seen.text.split('\n').find((l) => pattern.test(l));
        if (found === undefined) return false;
        resolve(found);
        return true;
      };
      if (look()) return;
      const onData = () => {
        if (look()) stream?.off('data', onData);
      };
      stream?.on('data', onData);
      stream?.once('end', () => reject(new Error(`no line ${pattern} in: ${seen.text}`)));
    });
  return { seen, line };
}

/** Ends a server process (SIGTERM) and resolves once it exited. */
function ended(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

const stopping: (() => unknown)[] = [];
afterAll(async () => {
  for (const stop of stopping.reverse()) await stop();
});

describe('raider-server at start', () => {
  it('a --data-dir that is a file is named in one line, exit 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raider-cli-start-'));
    const file = join(dir, 'lists');
    writeFileSync(file, 'a file, not a folder');
    const { code, stderr } = await run(['--data-dir', file]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `raider-server error: --data-dir ${file}: is a file, not a folder (expected a folder for the lists, made when missing)\n`,
    );
  });

  it('an unknown flag names the nearest known one, exit 2', async () => {
    const { code, stderr } = await run(['--databse-url', 'postgres://h/d']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'raider-server: unknown flag --databse-url: did you mean --database-url?\nTry raider-server --help.\n',
    );
  });

  it('--help names the X-Raider-List and X-Raider-Agent headers', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      '\nHTTP headers a client may send to /mcp (with --http; the flag named beats the header):\n',
    );
    expect(stdout).toMatch(/\n {2}X-Raider-List: ID +the list it works on \(--list\)/);
    expect(stdout).toMatch(/\n {2}X-Raider-Agent: NAME +who its agent is, its task owner name and inbox \(--agent\)/);
  });

  it('over HTTP without --list the log says which list each era works on; a port taken suggests --port 0, exit 1', async () => {
    const server = spawn(process.execPath, [CLI, '--http', '--port', '0'], {
      env: { ...env, CLAUDE_PROJECT_DIR: '/work/my-app' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    stopping.push(() => ended(server));
    const log = stderrOf(server);
    const listening = await log.line(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const port = Number(/:(\d+)\/mcp/.exec(listening)?.[1]);
    expect(await log.line(/^raider-server info: no --list: /)).toBe(
      `raider-server info: no --list: every 2026-era client shares the default list ${projectListId('/work/my-app')} (they have no session), while each 2025-era session gets a list of its own; a client names another list with the X-Raider-List header`,
    );
    const second = await run(['--http', '--port', String(port), '--list', 'team']);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `raider-server error: cannot listen on 127.0.0.1:${port}: the port is in use (another raider-server?); give --port 0 for a free one, or another --port\n`,
    );
    // With --list every client is on it: no such line (the taken port ended it before listening).
    expect(second.stderr).not.toContain('no --list');
  });

  it('an unreachable database is one line without its password, over stdio and over HTTP, exit 1', async () => {
    const port = await freePort();
    const stdio = await run(['--database-url', `postgres://raider:pw-never-shown@127.0.0.1:${port}/raider`]);
    expect(stdio.code).toBe(1);
    expect(stdio.stderr).toBe(
      `raider-server error: --database-url: PostgreSQL at 127.0.0.1:${port}/raider cannot be reached: nothing listens there (connection refused); start it or fix the URL, or give --wait-for-database to wait for it\n`,
    );
    // A database that answers, but not to this password.
    const wrong = withTarget(databaseUrl, { password: 'wrong-pw-never-shown' });
    const http = await run(['--http', '--port', '0', '--database-url', wrong]);
    expect(http.code).toBe(1);
    const target = databaseTarget(databaseUrl).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(http.stderr).toMatch(
      new RegExp(
        `^raider-server error: --database-url: ${target} cannot be reached: password authentication failed for user "[^"]+"; start it or fix the URL, or give --wait-for-database to wait for it\\n$`,
      ),
    );
    expect(`${stdio.stderr}${http.stderr}`).not.toMatch(/pw-never-shown/);
    expect(http.stderr).not.toContain('listening on');
  }, 30_000);

  it('with --wait-for-database it says it waits, and serves once the database answers', async () => {
    const port = await freePort();
    const real = new URL(databaseUrl);
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--database-url', url.toString(), '--list', `waited-${Date.now()}`, '--wait-for-database'],
      env,
      stderr: 'pipe',
    });
    const log = stderrOf(transport);
    const client = new Client({ name: 'cli-start', version: '1.0.0' });
    stopping.push(() => client.close().catch(() => {}));
    // The server does not serve yet: the client's initialize waits for it.
    const connected = client.connect(transport);
    expect(await log.line(/waiting for it/)).toBe(
      `raider-server warn: PostgreSQL at 127.0.0.1:${port}${real.pathname} cannot be reached: nothing listens there (connection refused); waiting for it (--wait-for-database), looking again after 1 s, then less and less often (at most every 30 s)`,
    );
    // The database comes up at that address (a TCP proxy to the tests' PostgreSQL).
    const sockets = new Set<Socket>();
    const proxy: Server = createServer((inbound) => {
      const outbound = dial(Number(real.port || 5432), real.hostname.replace(/^\[|\]$/g, ''));
      for (const socket of [inbound, outbound]) {
        sockets.add(socket);
        socket.on('error', () => {});
        socket.once('close', () => sockets.delete(socket));
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    stopping.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          proxy.close(resolve);
        }),
    );
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    await connected;
    expect(await log.line(/answers after/)).toMatch(
      new RegExp(
        `^raider-server info: PostgreSQL at 127\\.0\\.0\\.1:${port}/\\S+ answers after \\d+\\.\\d s of waiting; serving$`,
      ),
    );
    const created = await client.callTool({
      name: 'task_create',
      arguments: { subject: 'After the wait', description: '' },
    });
    expect(textOf(created)).toBe('Task #1 created successfully: After the wait');
  }, 60_000);
});
