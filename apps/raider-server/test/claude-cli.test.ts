// Claude Code 2.1.332 as raider's client, the real CLI (from the npm registry, see
// claude-cli-setup.ts) and no model: `claude mcp add` raider over stdio and over HTTP, then
// `claude mcp list`, whose health check connects to each server as a session does (the
// `server/discover` probe, then initialize). Each test has a throwaway HOME and
// CLAUDE_CONFIG_DIR; Claude Code's telemetry, error reports and update checks are switched off, so
// nothing leaves the machine but loopback (checked once with strace: no connect() beyond
// 127.0.0.1). What the CLI took is written to test-results/claude-cli.json.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAUDE_CODE_VERSION,
  CLAUDE_OFFLINE_ENV,
  type ClaudeCli,
  claudeCli,
  FETCH_BUDGET_MS,
} from './claude-cli-setup.js';
import { CLI } from './helpers.js';

const ARTIFACTS = fileURLToPath(new URL('../test-results/', import.meta.url));
const NODE = process.execPath;

const children: ChildProcess[] = [];
const homes: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** What the runs measured, written out after the file (no test asserts a speed). */
const report: Record<string, unknown> = {};
afterAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, 'claude-cli.json'), `${JSON.stringify(report, null, 2)}\n`);
});

/** A throwaway HOME with Claude Code's config dir and a project folder to run `claude` in. */
function claudeHome() {
  const home = mkdtempSync(join(tmpdir(), 'raider-claude-home-'));
  homes.push(home);
  const config = join(home, '.claude');
  const project = join(home, 'project');
  mkdirSync(project);
  return { home, config, project };
}

/** Runs `claude ARGS` in the home's project, its environment made from nothing but the home. */
function claude(cli: ClaudeCli, where: ReturnType<typeof claudeHome>, args: string[]) {
  const started = performance.now();
  return new Promise<{ code: number | null; out: string; ms: number }>((resolve, reject) => {
    execFile(
      cli.path,
      args,
      {
        cwd: where.project,
        env: { PATH: process.env.PATH ?? '', HOME: where.home, CLAUDE_CONFIG_DIR: where.config, ...CLAUDE_OFFLINE_ENV },
        timeout: 120_000,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        if (error && code === null) reject(new Error(`claude ${args.join(' ')}: ${error.message}\n${stderr}`));
        else resolve({ code, out: stripVTControlCharacters(`${stdout}${stderr}`), ms: performance.now() - started });
      },
    );
  });
}

/** Starts the built server with --http on a free loopback port; resolves with its /mcp URL. */
async function httpServer(): Promise<string> {
  const child = spawn(NODE, [CLI, '--http', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '' },
  });
  children.push(child);
  let log = '';
  return new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`raider-server --http exited ${code}: ${log}`)));
  });
}

/**
 * What Claude Code logged of its connections to server `name`, one message a line (its
 * per-server log, JSON lines of `{debug}` or `{error}`, in ~/.cache/claude-cli-nodejs/<project>/).
 */
function connectionLog(home: string, name: string): string {
  const root = join(home, '.cache', 'claude-cli-nodejs');
  if (!existsSync(root)) return '';
  const messages: string[] = [];
  for (const project of readdirSync(root)) {
    const folder = join(root, project, `mcp-logs-${name}`);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)) {
      for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const entry = JSON.parse(line) as { debug?: string; error?: string };
        messages.push(entry.debug ?? `error: ${entry.error}`);
      }
    }
  }
  return messages.join('\n');
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

/**
 * The server README's `claude mcp add … -- node "$PWD/…"` lines (From a clone, until the
 * release), as the words a shell gives `claude` when it runs them in the clone's folder.
 */
function cloneLines(): string[][] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## From a clone, until the release');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^claude mcp add (.*"\$PWD\/.*)$/gm)].map(([, rest]) => {
    if (/\s/.test(ROOT)) throw new Error(`the clone's path holds a blank, which these words do not handle: ${ROOT}`);
    return ['mcp', 'add', ...(rest as string).replaceAll('"$PWD', ROOT).replaceAll('"', '').trim().split(/\s+/)];
  });
}

/** The folders under `dir` that hold nothing. */
function emptyFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(join(dir, entry.name)).length === 0)
    .map((entry) => entry.name);
}

describe.skipIf(process.platform === 'win32')(`Claude Code ${CLAUDE_CODE_VERSION}'s CLI (no model)`, () => {
  let cli: ClaudeCli;
  beforeAll(async () => {
    cli = await claudeCli();
    report.cli = cli;
  }, FETCH_BUDGET_MS + 120_000);

  it("claude mcp list: raider is connected over stdio (--claude-tasks, and the README's lines from a clone) and over HTTP, on 2025-11-25 after the probe", async () => {
    const where = claudeHome();
    const url = await httpServer();
    // The README's `claude mcp add raider -- node "$PWD/…"` lines, as a user runs them from the
    // clone's folder; the second is added under another name (both are called raider there).
    const fromClone = cloneLines().map((args, index) =>
      index === 0 ? args : ['mcp', 'add', `raider-${index + 1}`, ...args.slice(3)],
    );
    expect(fromClone.length).toBeGreaterThanOrEqual(2);
    // One after the other: each writes the same config file.
    const added = [];
    for (const args of [
      ['mcp', 'add', 'raider-claude-tasks', '--', NODE, CLI, '--claude-tasks'],
      ...fromClone,
      ['mcp', 'add', '--transport', 'http', 'raider-http', url],
    ])
      added.push(await claude(cli, where, args));
    for (const { code, out } of added)
      expect({ code, out }).toMatchObject({ code: 0, out: expect.stringMatching(/^Added /) });

    const listed = await claude(cli, where, ['mcp', 'list']);
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines).toContain(`raider-claude-tasks: ${NODE} ${CLI} --claude-tasks - ✔ Connected`);
    for (const args of fromClone) {
      const [name, , ...command] = args.slice(2);
      expect(command.slice(0, 2)).toEqual(['node', CLI]);
      expect(lines).toContain(`${name}: ${command.join(' ')} - ✔ Connected`);
    }
    expect(lines).toContain(`raider-http: ${url} (HTTP) - ✔ Connected`);

    // raider answers the probe before initialize with a JSON-RPC error (stdio: -32601 Method not
    // found; HTTP: 400 with -32000, no session), which Claude Code takes as "legacy" at once: a
    // silent server would cost the probe's whole limit (3 s over stdio, 5 s over HTTP) per connect.
    const connected: Record<string, number> = {};
    for (const [name, transport] of [
      ['raider-claude-tasks', 'stdio'],
      ['raider', 'stdio'],
      ['raider-http', 'http'],
    ] as const) {
      const log = connectionLog(where.home, name);
      expect(log).toContain(`Successfully connected (transport: ${transport})`);
      // Claude Code's probe is answered: it speaks 2026-07-28 to raider (SDK v2, both eras).
      expect(log).toContain('"protocolEra":"modern","negotiatedProtocolVersion":"2026-07-28"');
      // Claude Code logs nothing of a probe that timed out when the connection then succeeds: the
      // answer itself is checked below, without the CLI.
      expect(log).not.toMatch(/probe (timed out|failed|closed)/);
      connected[name] = Number(/Successfully connected \(transport: \w+\) in (\d+)ms/.exec(log)?.[1]);
    }
    report.mcpList = { wallMs: Math.round(listed.ms), connectedInMs: connected, output: listed.out.trim() };
  }, 180_000);

  it("a health check of claude mcp list leaves no empty task folder in the config dir's tasks/", async () => {
    const where = claudeHome();
    expect((await claude(cli, where, ['mcp', 'add', 'raider', '--', NODE, CLI, '--claude-tasks'])).code).toBe(0);
    // Each health check is a session of its own (a new CLAUDE_CODE_SESSION_ID for the servers).
    for (let check = 0; check < 2; check += 1) {
      const listed = await claude(cli, where, ['mcp', 'list']);
      expect(listed.out.split('\n')).toContain(`raider: ${NODE} ${CLI} --claude-tasks - ✔ Connected`);
    }
    expect(emptyFolders(join(where.config, 'tasks'))).toEqual([]);
  }, 180_000);
});

/** Claude Code 2.1.332's probe, sent before initialize to stdio and http servers. */
const PROBE = {
  jsonrpc: '2.0',
  id: 'server-discover-probe-1',
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'claude-code', version: CLAUDE_CODE_VERSION },
      'io.modelcontextprotocol/clientCapabilities': {
        roots: { listChanged: true },
        elicitation: { form: {}, url: {} },
      },
    },
  },
};

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
    clientInfo: { name: 'claude-code', version: CLAUDE_CODE_VERSION },
  },
};

// Claude Code's probe, checked on the wire: answered at once with the 2026-07-28 discover result,
// and a client that falls back to initialize after it is served the 2025 era on the same process
// (staying silent would cost the probe's limit on every connect).
describe("Claude Code's server/discover probe", () => {
  it('over stdio: answered at once with 2026-07-28, and initialize may still follow on the same process', async () => {
    const child = spawn(NODE, [CLI, '--claude-tasks', '--list', 'probe'], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH ?? '', CLAUDE_CONFIG_DIR: claudeHome().config },
    });
    children.push(child);
    const replies: unknown[] = [];
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        replies.push(JSON.parse(buffered.slice(0, end)));
        buffered = buffered.slice(end + 1);
      }
    });
    child.stdin?.write(`${JSON.stringify(PROBE)}\n`);
    await expect.poll(() => replies.length, { timeout: 30_000 }).toBe(1);
    expect(replies[0]).toMatchObject({
      jsonrpc: '2.0',
      id: 'server-discover-probe-1',
      result: {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'raider-server' } },
      },
    });
    child.stdin?.write(`${JSON.stringify(INITIALIZE)}\n`);
    await expect.poll(() => replies.length, { timeout: 30_000 }).toBe(2);
    expect(replies[1]).toMatchObject({
      id: 0,
      result: { protocolVersion: '2025-11-25', serverInfo: { name: 'raider-server' } },
    });
  });

  it('over HTTP: answered with 2026-07-28 (no session), and initialize still opens a 2025-era session', async () => {
    const url = await httpServer();
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    // The standard headers a 2026-era request carries (SEP-2243), as Claude Code's client sends them.
    const probed = await post(PROBE, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
    expect(probed.status).toBe(200);
    expect(probed.headers.get('mcp-session-id')).toBeNull();
    expect(await probed.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 'server-discover-probe-1',
      result: { supportedVersions: ['2026-07-28'] },
    });
    const initialized = await post(INITIALIZE);
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get('mcp-session-id')).toBeTruthy();
  });
});
