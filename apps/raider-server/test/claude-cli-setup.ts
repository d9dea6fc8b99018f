/**
 * Claude Code's CLI for the tests that run it (claude-cli.test.ts), from the npm registry, so the
 * tests need nothing but Node and npm, as the board's Chromium (chromium-setup.ts).
 *
 * `@anthropic-ai/claude-code` is a 32 kB wrapper whose postinstall copies the native binary of an
 * optional dependency, `@anthropic-ai/claude-code-<platform>` (linux-x64: a 186 MB tarball holding
 * one 402 MB executable, `claude`), over its placeholder `bin/claude.exe`. The binary is all the
 * tests need, so only that package is fetched (`npm pack`, which checks the registry's integrity
 * hash; no install script runs), unpacked once into node_modules/.cache/claude-code-<version>-<platform>/
 * and reused by every later run. `RAIDER_CLAUDE=/path/to/claude` uses another CLI instead.
 *
 * Two runs may start at once: each fetches into a folder of its own and renames it into place; the
 * loser of the rename uses the winner's copy. The fetch is bounded: three tries within
 * FETCH_BUDGET_MS, then an error saying what failed and how to go on without the registry.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { arch } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Claude Code release the tests run (the one the project's notes describe). */
export const CLAUDE_CODE_VERSION = '2.1.332';

/** The most the fetch may take, all tries together (a quiet machine takes 5-10 s, unpacking included). */
export const FETCH_BUDGET_MS = 6 * 60_000;

const TRIES = 3;

const CACHE = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));

/** The CLI the tests run, and how it was had (for the report the test writes). */
export interface ClaudeCli {
  path: string;
  version: string;
  /** `cache`: unpacked by an earlier run; `fetched`: fetched now; `given`: RAIDER_CLAUDE. */
  source: 'cache' | 'fetched' | 'given';
  /** How long fetching and unpacking took, in ms, when it was fetched now. */
  fetchMs?: number;
  /** The size of the tarball fetched, in bytes, when it was fetched now. */
  tarballBytes?: number;
}

/** The platform part of the native package's name, as the wrapper's install.cjs picks it. */
function platformKey(): string {
  const cpu = arch();
  if (process.platform !== 'linux') return `${process.platform}-${cpu}`;
  // glibc's version is absent from the report on musl (Alpine).
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return `linux-${cpu}${header?.glibcVersionRuntime === undefined ? '-musl' : ''}`;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Claude Code's switches for a run that reaches no network: no telemetry, no error reports, no update checks. */
export const CLAUDE_OFFLINE_ENV = {
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
} as const;

function run(command: string, args: string[], options: { cwd?: string; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: { ...process.env, ...CLAUDE_OFFLINE_ENV },
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: unknown }) | null;
        resolve({
          code: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0,
          stdout: String(stdout),
          stderr: String(stderr) || (failure && typeof failure.code !== 'number' ? failure.message : ''),
          timedOut: failure?.killed === true,
        });
      },
    );
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last lines of a command's output, for a message a person can act on. */
const tail = (text: string) => text.trim().split('\n').slice(-6).join('\n');

/** What `npm pack --json` said went wrong (its `error.summary`), else the end of its output. */
function npmFailure(fetched: Run): string {
  try {
    const said = JSON.parse(fetched.stdout) as { error?: { summary?: string } };
    if (said.error?.summary) return said.error.summary;
  } catch {
    // Not JSON: an npm that does not know --json, or no npm at all.
  }
  return tail(fetched.stderr || fetched.stdout);
}

/**
 * Fetches the native package's tarball into `folder` with npm (its own cache inside `folder`, so
 * nothing is left in ~/.npm), trying again after a failure; returns the tarball's path.
 * @throws Error after the last try, or once FETCH_BUDGET_MS is spent.
 */
async function fetchTarball(spec: string, folder: string): Promise<string> {
  const deadline = Date.now() + FETCH_BUDGET_MS;
  let last = '';
  for (let attempt = 1; attempt <= TRIES; attempt += 1) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const fetched = await run(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      [
        'pack',
        spec,
        '--pack-destination',
        folder,
        '--cache',
        join(folder, 'npm-cache'),
        '--json',
        // npm's own retries (ten seconds and more apart) are left to the tries here.
        '--fetch-retries=0',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: folder, timeoutMs: left },
    );
    const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'));
    if (fetched.code === 0 && tarball) return join(folder, tarball);
    last = fetched.timedOut
      ? `npm pack ${spec} was still running after ${Math.round(left / 1000)} s`
      : `npm pack ${spec} exited ${fetched.code}: ${npmFailure(fetched)}`;
    if (attempt < TRIES) await sleep(Math.min(2000 * attempt, Math.max(0, deadline - Date.now())));
  }
  throw new Error(
    `Claude Code's CLI could not be fetched from the npm registry (${spec}, about 186 MB) in ${TRIES} tries within ${FETCH_BUDGET_MS / 60_000} minutes. Last: ${last}\nIs the registry reachable (npm ping)? To run these tests with a CLI of your own: RAIDER_CLAUDE=/path/to/claude.`,
  );
}

/**
 * Claude Code's CLI (`CLAUDE_CODE_VERSION`), fetched and unpacked once into the cache, checked to
 * run (`claude --version`).
 * @throws Error when it cannot be fetched, unpacked or run here, saying which and why.
 */
export async function claudeCli(): Promise<ClaudeCli> {
  const given = process.env.RAIDER_CLAUDE;
  if (given) return { path: given, version: await versionOf(given), source: 'given' };
  const key = platformKey();
  const binary = process.platform === 'win32' ? 'claude.exe' : 'claude';
  const home = join(CACHE, `claude-code-${CLAUDE_CODE_VERSION}-${key}`);
  if (existsSync(join(home, 'ready'))) {
    return { path: join(home, binary), version: CLAUDE_CODE_VERSION, source: 'cache' };
  }
  const started = Date.now();
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, 'claude-code-fetching-'));
  let tarballBytes: number;
  try {
    const tarball = await fetchTarball(`@anthropic-ai/claude-code-${key}@${CLAUDE_CODE_VERSION}`, staging);
    tarballBytes = statSync(tarball).size;
    const unpacked = await run('tar', ['-xzf', tarball, '-C', staging, `package/${binary}`], { timeoutMs: 5 * 60_000 });
    if (unpacked.code !== 0) throw new Error(`tar could not unpack ${tarball}: ${tail(unpacked.stderr)}`);
    renameSync(join(staging, 'package', binary), join(staging, binary));
    for (const name of readdirSync(staging)) {
      if (name !== binary) rmSync(join(staging, name), { recursive: true, force: true });
    }
    await versionOf(join(staging, binary));
    writeFileSync(join(staging, 'ready'), `${CLAUDE_CODE_VERSION}\n`);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(staging, home);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(home, 'ready'))) throw error;
  }
  return {
    path: join(home, binary),
    version: CLAUDE_CODE_VERSION,
    source: 'fetched',
    fetchMs: Date.now() - started,
    tarballBytes,
  };
}

/**
 * The version a CLI prints (`2.1.332 (Claude Code)` → `2.1.332`).
 * @throws Error when it does not run here (a missing loader or library says so on stderr).
 */
async function versionOf(path: string): Promise<string> {
  const printed = await run(path, ['--version'], { timeoutMs: 60_000 });
  const version = /^(\d+\.\d+\.\d+) \(Claude Code\)/.exec(printed.stdout.trim())?.[1];
  if (printed.code !== 0 || !version) {
    throw new Error(
      `${path} --version did not print a Claude Code version (exit ${printed.code}): ${tail(printed.stderr || printed.stdout)}`,
    );
  }
  return version;
}
