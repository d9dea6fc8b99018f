/**
 * The MCP Inspector v2 (`@modelcontextprotocol/inspector` 2.x, the first to speak the 2026-07-28
 * revision) for inspector-v2.test.ts, from the npm registry, as Claude Code's CLI is fetched for
 * its tests (claude-cli-setup.ts). The package's devDependency stays the v1 Inspector
 * (inspector.test.ts): v2 asks for Node >= 22.19.0 (its `engines`), and this package is tested on
 * Node 20 as well, so v2 lives outside the workspace, in node_modules/.cache/, never in
 * package.json or the lockfile.
 *
 * - Node: the running one when it is new enough (CI's runs on Node 22 and 24), else `NODE_VERSION`
 *   from the registry's runtime package `node-<platform>-<arch>` (a 51 MB tarball holding one
 *   125 MB executable, `bin/node`): fetched with `npm pack` (which checks the registry's integrity
 *   hash; no install script runs), only `bin/node` unpacked, into node_modules/.cache/node-<version>-<platform>/.
 *   `RAIDER_NODE22=/path/to/node` uses another Node (>= 22.19.0) instead.
 * - The Inspector: `npm install @modelcontextprotocol/inspector@<version>` into
 *   node_modules/.cache/mcp-inspector-<version>-<platform>/ (about 110 MB, 120 packages), with the
 *   Node the tests run on (npm's global config with it: a CA file, a proxy), npm's own cache inside the folder (removed after), no
 *   install scripts (its one postinstall is a no-op outside its own source checkout).
 *
 * Each is done once and reused by every later run. Two runs may start at once: each works in a
 * folder of its own and renames it into place; the loser of the rename uses the winner's copy.
 * The registry's steps are bounded: three tries within FETCH_BUDGET_MS, each request failing after
 * a minute without an answer, then an error saying what failed and how to go on.
 */
import { execFile } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { arch } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Inspector release the test drives. */
export const INSPECTOR_VERSION = '2.12.0';

/** The Node fetched when the running one is too old for it (a 22.x, as its `engines` asks). */
export const NODE_VERSION = '22.23.5';

/** The oldest Node the Inspector runs on (its `engines`: >=22.19.0). */
const MIN_NODE: readonly [number, number, number] = [22, 19, 0];

/** The most the registry's steps may take, all tries together (a quiet machine takes 10-20 s in all). */
export const FETCH_BUDGET_MS = 8 * 60_000;

const TRIES = 3;

const CACHE = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** How a piece was had (for what the test reports). */
export type Source = 'running' | 'given' | 'cache' | 'fetched';

export interface InspectorV2 {
  /** The Node that runs the Inspector (>= 22.19.0). */
  node: string;
  nodeVersion: string;
  /** `running`: this process's Node; `given`: RAIDER_NODE22; `cache`/`fetched`: the registry's package. */
  nodeSource: Source;
  /** The Inspector's launcher script (its `mcp-inspector` bin), to run with `node`. */
  launcher: string;
  /** The Inspector's version, as it prints it (`--version`). */
  version: string;
  source: Exclude<Source, 'running' | 'given'>;
  /** How long fetching and installing took now (Node included), in ms; absent when all came from the cache. */
  installMs?: number;
  /** The size of what was put in the cache now, in bytes. */
  installBytes?: number;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
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

/** What `npm … --json` said went wrong (its `error.summary`), else the end of its output. */
function npmFailure(ran: Run): string {
  try {
    const said = JSON.parse(ran.stdout) as { error?: { summary?: string } };
    if (said.error?.summary) return said.error.summary;
  } catch {
    // Not JSON: npm printed its error as text, or no npm ran at all.
  }
  return tail(ran.stderr || ran.stdout);
}

/** npm's switches for every call here: its cache in `folder`, one minute per request, no retries of its own. */
const npmFlags = (folder: string) => [
  '--cache',
  join(folder, 'npm-cache'),
  '--json',
  // npm's own retries (ten seconds and more apart) are left to the tries here.
  '--fetch-retries=0',
  '--fetch-timeout=60000',
  '--no-audit',
  '--no-fund',
  '--no-update-notifier',
];

/** Node's version as numbers (`v22.23.5` → [22, 23, 5]). */
const parts = (version: string) => version.replace(/^v/, '').split('.').map(Number);

function newEnough(version: string): boolean {
  const got = parts(version);
  for (let i = 0; i < MIN_NODE.length; i += 1) {
    const have = got[i] ?? 0;
    const need = MIN_NODE[i] ?? 0;
    if (have !== need) return have > need;
  }
  return true;
}

/** The platform part of the runtime package's name (`linux-x64`, `darwin-arm64`; Windows' is `win`). */
const platformKey = () => `${process.platform === 'win32' ? 'win' : process.platform}-${arch()}`;

/** The bytes under `path`, links not followed. */
function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/**
 * Runs one registry step up to TRIES times within the budget left before `deadline`.
 * @throws Error after the last try, with what the last one said and what to do about it.
 */
async function withTries(what: string, deadline: number, step: (left: number) => Promise<string | undefined>) {
  let last = '';
  for (let attempt = 1; attempt <= TRIES; attempt += 1) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const failure = await step(left);
    if (failure === undefined) return;
    last = failure;
    if (attempt < TRIES) await sleep(Math.min(2000 * attempt, Math.max(0, deadline - Date.now())));
  }
  throw new Error(
    `The MCP Inspector v2's test could not get ${what} from the npm registry in ${TRIES} tries within ${FETCH_BUDGET_MS / 60_000} minutes. Last: ${last}\nIs the registry reachable (npm ping)? Without it, skip this file (vitest run --exclude test/inspector-v2.test.ts); RAIDER_NODE22=/path/to/node supplies a Node >= ${MIN_NODE.join('.')} but not the Inspector.`,
  );
}

/** Moves the finished `staging` folder to `home`, or keeps the copy another run put there first. */
function settle(staging: string, home: string): void {
  try {
    renameSync(staging, home);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(home, 'ready'))) throw error;
  }
}

/** The version a Node prints, or an error saying why it does not run here. */
async function nodeVersionOf(node: string): Promise<string> {
  const printed = await run(node, ['--version'], { timeoutMs: 60_000 });
  const version = printed.stdout.trim();
  if (printed.code !== 0 || !/^v\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(`${node} --version did not print a Node version (exit ${printed.code}): ${tail(printed.stderr)}`);
  }
  return version;
}

/** A Node the Inspector runs on: this one, RAIDER_NODE22's, or the registry's (cached). */
async function node22(deadline: number): Promise<{ path: string; version: string; source: Source; bytes: number }> {
  const given = process.env.RAIDER_NODE22;
  if (given) {
    const version = await nodeVersionOf(given);
    if (!newEnough(version))
      throw new Error(`RAIDER_NODE22=${given} is Node ${version}; the Inspector v2 needs >= ${MIN_NODE.join('.')}`);
    return { path: given, version, source: 'given', bytes: 0 };
  }
  if (newEnough(process.version))
    return { path: process.execPath, version: process.version, source: 'running', bytes: 0 };
  const key = platformKey();
  const binary = process.platform === 'win32' ? 'node.exe' : 'node';
  const home = join(CACHE, `node-${NODE_VERSION}-${key}`);
  if (existsSync(join(home, 'ready')))
    return { path: join(home, binary), version: `v${NODE_VERSION}`, source: 'cache', bytes: 0 };
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, 'node-fetching-'));
  const spec = `node-${key}@${NODE_VERSION}`;
  try {
    let tarball = '';
    await withTries(`Node ${NODE_VERSION} (${spec}, about 51 MB)`, deadline, async (left) => {
      const packed = await run(NPM, ['pack', spec, '--pack-destination', staging, ...npmFlags(staging)], {
        cwd: staging,
        timeoutMs: left,
      });
      const found = readdirSync(staging).find((name) => name.endsWith('.tgz'));
      if (packed.code === 0 && found) {
        tarball = join(staging, found);
        return undefined;
      }
      return packed.timedOut
        ? `npm pack ${spec} was still running after ${Math.round(left / 1000)} s`
        : `npm pack ${spec} exited ${packed.code}: ${npmFailure(packed)}`;
    });
    // The Windows package keeps node.exe at its root; the others in bin/.
    const inside = process.platform === 'win32' ? `package/${binary}` : `package/bin/${binary}`;
    const unpacked = await run('tar', ['-xzf', tarball, '-C', staging, inside], { timeoutMs: 5 * 60_000 });
    if (unpacked.code !== 0)
      throw new Error(`tar could not unpack ${inside} from ${tarball}: ${tail(unpacked.stderr)}`);
    renameSync(join(staging, inside), join(staging, binary));
    for (const name of readdirSync(staging)) {
      if (name !== binary) rmSync(join(staging, name), { recursive: true, force: true });
    }
    const version = await nodeVersionOf(join(staging, binary));
    if (version !== `v${NODE_VERSION}`) throw new Error(`${spec} holds Node ${version}, not v${NODE_VERSION}`);
    writeFileSync(join(staging, 'ready'), `${NODE_VERSION}\n`);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const bytes = statSync(join(staging, binary)).size;
  settle(staging, home);
  return { path: join(home, binary), version: `v${NODE_VERSION}`, source: 'fetched', bytes };
}

/** The environment for a command run on `node`: that Node first on PATH, so npm's and the Inspector's `node` is it. */
export function pathWith(node: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: [dirname(node), env.PATH ?? ''].join(delimiter) };
}

/** The launcher script of an installed Inspector (its package.json's `mcp-inspector` bin). */
function launcherIn(folder: string): string {
  const root = join(folder, 'node_modules', '@modelcontextprotocol', 'inspector');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  const bin = manifest.bin?.['mcp-inspector'];
  if (!bin) throw new Error(`${root}/package.json has no mcp-inspector bin`);
  return join(root, bin);
}

/** The version an Inspector prints (`--cli --version`), or an error saying why it does not run. */
async function inspectorVersionOf(node: string, launcher: string): Promise<string> {
  const printed = await run(node, [launcher, '--cli', '--version'], { timeoutMs: 60_000, env: pathWith(node) });
  const version = /\d+\.\d+\.\d+/.exec(printed.stdout)?.[0];
  if (printed.code !== 0 || !version) {
    throw new Error(
      `The MCP Inspector (${launcher}) did not print its version on ${node} (exit ${printed.code}): ${tail(printed.stderr || printed.stdout)}`,
    );
  }
  return version;
}

/**
 * The MCP Inspector v2 (`INSPECTOR_VERSION`) and a Node to run it, installed once into the cache,
 * checked to run (`--cli --version`).
 * @throws Error when either cannot be had or run here, saying which and why.
 */
export async function inspectorV2(): Promise<InspectorV2> {
  const started = Date.now();
  const deadline = started + FETCH_BUDGET_MS;
  const node = await node22(deadline);
  const home = join(CACHE, `mcp-inspector-${INSPECTOR_VERSION}-${platformKey()}`);
  const had = {
    node: node.path,
    nodeVersion: node.version,
    nodeSource: node.source,
  };
  if (existsSync(join(home, 'ready'))) {
    const launcher = launcherIn(home);
    const fetchedNode = node.source === 'fetched';
    return {
      ...had,
      launcher,
      version: INSPECTOR_VERSION,
      source: 'cache',
      ...(fetchedNode ? { installMs: Date.now() - started, installBytes: node.bytes } : {}),
    };
  }
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, 'mcp-inspector-installing-'));
  const spec = `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`;
  try {
    // A project of its own, so npm looks for no workspace above it and writes no one else's files.
    writeFileSync(
      join(staging, 'package.json'),
      `${JSON.stringify({ name: 'raider-mcp-inspector-v2', private: true, description: 'Cache for test/inspector-v2.test.ts' }, null, 2)}\n`,
    );
    await withTries(`${spec} (about 110 MB installed)`, deadline, async (left) => {
      const installed = await run(
        NPM,
        ['install', spec, '--prefix', staging, '--ignore-scripts', '--workspaces=false', ...npmFlags(staging)],
        // On the Node running the tests, not the fetched one: npm then reads the same global config
        // (a CA file, a proxy) as every other npm call here; under turbo, whose tasks see only some
        // variables (NODE_EXTRA_CA_CERTS not among them), npm on the fetched Node found no CA and
        // failed with "self-signed certificate in certificate chain". --ignore-scripts: nothing of
        // the package runs at install, so its engines (Node >= 22.19) do not matter here.
        { cwd: staging, timeoutMs: left, env: process.env },
      );
      if (installed.code === 0 && existsSync(join(staging, 'node_modules', '@modelcontextprotocol', 'inspector'))) {
        return undefined;
      }
      return installed.timedOut
        ? `npm install ${spec} was still running after ${Math.round(left / 1000)} s`
        : `npm install ${spec} exited ${installed.code}: ${npmFailure(installed)}`;
    });
    rmSync(join(staging, 'npm-cache'), { recursive: true, force: true });
    const version = await inspectorVersionOf(node.path, launcherIn(staging));
    if (version !== INSPECTOR_VERSION) throw new Error(`${spec} says it is version ${version}`);
    writeFileSync(join(staging, 'ready'), `${INSPECTOR_VERSION}\n`);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const bytes = sizeOf(staging);
  settle(staging, home);
  return {
    ...had,
    launcher: launcherIn(home),
    version: INSPECTOR_VERSION,
    source: 'fetched',
    installMs: Date.now() - started,
    installBytes: bytes + node.bytes,
  };
}
