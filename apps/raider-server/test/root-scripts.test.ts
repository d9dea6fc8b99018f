// The README's way to run the server from a clone: `pnpm server ARGS` at the root.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

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
  it('runs the built server: --version on stdout, nothing else there', async () => {
    const { code, stdout } = await pnpmServer(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${VERSION}\n`);
  }, 120_000);

  it('serves Streamable HTTP with the board, and SIGTERM stops it', async () => {
    let health = 0;
    const { stderr, checked } = await pnpmServer(['--http', '--port', '0', '--board'], async (url) => {
      health = (await fetch(url.replace('/mcp', '/healthz'))).status;
    });
    expect(checked).toBe(true);
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
