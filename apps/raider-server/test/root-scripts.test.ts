// The README's way to run the server from a clone: `pnpm server ARGS` at the root.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
