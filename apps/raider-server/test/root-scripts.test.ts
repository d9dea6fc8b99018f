// The README's way to run the server from a clone: `pnpm server ARGS` at the root, which builds
// nothing during a test run; the root's scripts behind `pnpm test` (one build per run, one total).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPrint, buildState, changedFiles, ensureBuilt, default as setup } from '../../../scripts/ensure-built.mjs';
import { VERSION } from '../src/version.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER = fileURLToPath(new URL('..', import.meta.url));
const ENSURE_BUILT = join(ROOT, 'scripts', 'ensure-built.mjs');

/**
 * Runs `pnpm --silent server ...args` at the repository's root. With `serving`, waits for the
 * URL it logs, hands it to `serving`, then sends pnpm SIGTERM, which pnpm hands to the server
 * (the script execs it).
 */
function pnpmServer(args: string[], serving?: (url: string) => Promise<void>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; checked: boolean }>((resolve, reject) => {
    const child = spawn('pnpm', ['--silent', 'server', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    let checked = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      const url = /listening on (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url && serving && !checked) {
        checked = true;
        serving(url)
          .catch((error: Error) => (stderr += `\ncheck failed: ${error.message}`))
          .finally(() => child.kill('SIGTERM'));
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr, checked }));
  });
}

describe('pnpm server (from a clone)', () => {
  // The build the other tests of this run read: `pnpm server` (ensure-built --when-stale) runs it
  // as it is, and refuses rather than rebuild it under them when it is stale.
  let before: Map<string, string>;
  beforeEach(() => {
    before = buildPrint(SERVER);
  });
  afterEach(() => {
    expect(changedFiles(before, buildPrint(SERVER))).toEqual([]);
  });

  it('runs the built server: --version on stdout, nothing else there', async () => {
    const { code, stdout, stderr } = await pnpmServer(['--version']);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(`${VERSION}\n`);
  }, 120_000);

  it('serves Streamable HTTP with the board, and SIGTERM stops it', async () => {
    let health = 0;
    const { stderr, checked } = await pnpmServer(['--http', '--port', '0', '--board'], async (url) => {
      health = (await fetch(url.replace('/mcp', '/healthz'))).status;
    });
    expect(checked, stderr).toBe(true);
    expect(stderr).not.toContain('check failed');
    expect(health).toBe(200);
    await expect.poll(() => stderr.includes('shutting down: SIGTERM') || stderr, { timeout: 10_000 }).toBe(true);
  }, 120_000);
});

describe('pnpm test (scripts/test-total.mjs)', async () => {
  // @ts-expect-error: a plain .mjs script of the root, without declarations
  const { summaryOf, totalLine } = await import('../../../scripts/test-total.mjs');

  it("reads each package's vitest summary line, with or without colours", () => {
    expect(
      summaryOf(
        '@raider/kit:test: \u001b[2m      Tests \u001b[22m \u001b[1m\u001b[32m45 passed\u001b[39m\u001b[22m\u001b[90m (45)\u001b[39m',
      ),
    ).toEqual({
      package: '@raider/kit',
      passed: 45,
      failed: 0,
      skipped: 0,
    });
    expect(summaryOf('@raider/server:test:       Tests  1 failed | 253 passed | 2 skipped (256)')).toEqual({
      package: '@raider/server',
      passed: 253,
      failed: 1,
      skipped: 2,
    });
    expect(summaryOf('@raider/server:test:  Test Files  1 failed | 51 passed (52)')).toBeUndefined();
    expect(summaryOf('Tasks:    17 successful, 18 total')).toBeUndefined();
  });

  it('reads the summary lines of the task it runs (pnpm test:unit, pnpm test:e2e), and only those', () => {
    const unitLine = '@raider/server:test:unit:       Tests  162 passed (162)';
    expect(summaryOf(unitLine, 'test:unit')).toEqual({ package: '@raider/server', passed: 162, failed: 0, skipped: 0 });
    expect(summaryOf(unitLine)).toBeUndefined();
    expect(summaryOf(unitLine, 'test:e2e')).toBeUndefined();
    expect(summaryOf('@raider/server:test:       Tests  253 passed (253)', 'test:unit')).toBeUndefined();
  });

  it('ends with one total line over every package, naming a package that never counted', () => {
    const summaries = new Map([
      ['@raider/kit', { package: '@raider/kit', passed: 45, failed: 0, skipped: 0 }],
      ['@raider/server', { package: '@raider/server', passed: 253, failed: 1, skipped: 0 }],
    ]);
    expect(totalLine(summaries, new Set(['@raider/server']))).toBe('298 passed, 1 failed (2 packages)');
    expect(totalLine(summaries, new Set(['@raider/todo-tools']))).toBe(
      '298 passed, 1 failed (2 packages); no test count from @raider/todo-tools (failed before its tests ran)',
    );
  });
});

/** Writes `text` at `path` (its folders made) and gives it the time `at` (ms). */
function write(path: string, text: string, at: number) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  utimesSync(path, at / 1000, at / 1000);
}

describe('one build per test run (scripts/ensure-built.mjs)', () => {
  // A workspace of three: @t/a uses @t/b (built) and @t/kit (no build of its own, like the kit).
  let workspace: string;
  const folder = (name: string) => join(workspace, 'packages', name);
  const refusal = (why: string) =>
    `@t/a: ${why}, and nothing builds during a test run (its tests would read two builds): build first (pnpm --filter @t/a... build), then test`;
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'raider-ensure-built-'));
    const sources = Date.now() - 60_000;
    const builds = Date.now() - 30_000;
    const manifest = (name: string, extra: object) => JSON.stringify({ name, version: '0.0.0', ...extra });
    write(
      join(folder('a'), 'package.json'),
      manifest('@t/a', {
        scripts: { build: 'tsup' },
        dependencies: { '@t/b': 'workspace:^' },
        devDependencies: { '@t/kit': 'workspace:*' },
      }),
      sources,
    );
    write(join(folder('b'), 'package.json'), manifest('@t/b', { scripts: { build: 'tsup' } }), sources);
    write(join(folder('kit'), 'package.json'), manifest('@t/kit', {}), sources);
    for (const name of ['a', 'b', 'kit']) write(join(folder(name), 'src', 'index.ts'), 'export {};\n', sources);
    for (const name of ['a', 'b']) {
      write(join(folder(name), 'dist', 'index.js'), 'export {};\n', builds);
      utimesSync(join(folder(name), 'dist'), builds / 1000, builds / 1000);
    }
  });
  afterEach(() => {
    rmSync(workspace, { recursive: true, force: true });
  });

  it('a current build: nothing to build, even with --when-stale inside a run', () => {
    expect(buildState(folder('a'))).toEqual({
      name: '@t/a',
      chain: [folder('a'), folder('b')],
      missing: [],
      newerSource: undefined,
    });
    expect(ensureBuilt(folder('a'), { whenStale: true, refuse: true })).toBe(false);
  });

  it('a build newer than its own sources is current, though a package it uses was built before them', () => {
    // turbo rebuilt @t/a after its change and left @t/b's build (a cache hit) as it was.
    const at = (ago: number) => new Date(Date.now() - ago);
    utimesSync(join(folder('a'), 'src', 'index.ts'), at(20_000), at(20_000));
    utimesSync(join(folder('a'), 'dist', 'index.js'), at(10_000), at(10_000));
    expect(buildState(folder('a')).newerSource).toBeUndefined();
    expect(ensureBuilt(folder('a'), { whenStale: true, refuse: true })).toBe(false);
  });

  it('a source newer than the build inside a run: refused, naming the source; the build is left as it was', () => {
    const before = buildPrint(folder('a'));
    expect([...before.keys()]).toEqual(['packages/a/dist/index.js', 'packages/b/dist/index.js']);
    utimesSync(join(folder('kit'), 'src', 'index.ts'), new Date(), new Date());
    expect(buildState(folder('a')).newerSource).toBe('packages/kit/src/index.ts');
    expect(() => ensureBuilt(folder('a'), { whenStale: true, refuse: true })).toThrow(
      refusal('packages/kit/src/index.ts is newer than the build'),
    );
    // Without --when-stale (the global setup) a stale build is not rebuilt either.
    expect(ensureBuilt(folder('a'), { refuse: true })).toBe(false);
    expect(changedFiles(before, buildPrint(folder('a')))).toEqual([]);
  });

  it('a build missing inside a run: refused, naming the package without one', () => {
    rmSync(join(folder('b'), 'dist'), { recursive: true });
    expect(buildState(folder('a')).missing).toEqual(['@t/b']);
    expect(() => ensureBuilt(folder('a'), { refuse: true })).toThrow(refusal('@t/b has no build'));
  });

  it("pnpm server's first step, inside a run: exit code 1 and the refusal on stderr, nothing built", async () => {
    utimesSync(join(folder('b'), 'src', 'index.ts'), new Date(), new Date());
    const before = buildPrint(folder('a'));
    const child = spawn(process.execPath, [ENSURE_BUILT, folder('a'), '--when-stale'], {
      env: { ...process.env, RAIDER_TEST_RUN: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `${refusal('packages/b/src/index.ts is newer than the build')}\n`,
    });
    expect(changedFiles(before, buildPrint(folder('a')))).toEqual([]);
  });

  it('the global setup fails the run when a build it reads is rewritten before the end, naming the files', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const exitCode = process.exitCode;
    try {
      const teardown = setup({ config: { root: folder('a') } });
      // A rebuild of the same bytes counts: tests that ran before it read another build.
      utimesSync(join(folder('b'), 'dist', 'index.js'), new Date(), new Date());
      write(join(folder('a'), 'dist', 'chunk.js'), 'export {};\n', Date.now());
      teardown();
      expect(process.exitCode).toBe(1);
      expect(errors.mock.calls).toEqual([
        [
          '@t/a: a build was rewritten during this test run (packages/a/dist/chunk.js, packages/b/dist/index.js): tests that ran before it read another build. Build before the run; nothing may build during it',
        ],
      ]);
    } finally {
      process.exitCode = exitCode;
      errors.mockRestore();
    }
  });

  it('the global setup names a stale build once and leaves it, and a run that rewrote nothing passes', () => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const exitCode = process.exitCode;
    try {
      utimesSync(join(folder('a'), 'src', 'index.ts'), new Date(), new Date());
      const before = buildPrint(folder('a'));
      const teardowns = [setup({ config: { root: folder('a') } }), setup({ config: { root: folder('a') } })];
      for (const teardown of teardowns) teardown();
      expect(process.exitCode).toBe(exitCode);
      expect(changedFiles(before, buildPrint(folder('a')))).toEqual([]);
      expect(warnings.mock.calls).toEqual([
        [
          '@t/a: packages/a/src/index.ts is newer than the build these tests read; nothing builds during a run: build first (pnpm --filter @t/a... build, or pnpm turbo run test --filter=@t/a)',
        ],
      ]);
    } finally {
      process.exitCode = exitCode;
      warnings.mockRestore();
    }
  });
});

describe("the server README's mcpServers block from a clone", () => {
  it('starts with the clone path in place of /path/to/raider-tools and lists the task tools', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('## From a clone, until the release');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    const entry = (JSON.parse(block ?? '{}') as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers.raider;
    expect(entry?.command).toBe('node');
    const args = (entry?.args ?? []).map((arg) => arg.replace('/path/to/raider-tools/', ROOT));
    const client = new Client({ name: 'readme-block', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: entry?.command ?? 'node',
        args,
        env: { PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['task_create', 'task_update', 'task_list', 'task_get', 'ask_user']),
      );
    } finally {
      await client.close();
    }
  }, 60_000);
});
