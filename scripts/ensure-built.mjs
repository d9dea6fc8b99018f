// One build before any test, none during a run. Every package's vitest config runs this as a
// global setup (vitest.base.ts): it builds the package and the workspace packages it uses when a
// build is missing (so `pnpm --filter <package> test` works on a fresh clone as it does under
// `pnpm test`, where turbo builds first), says so when a build is older than its sources (it does
// not rebuild: under turbo another package's tests may be reading that dist/ at that moment), and
// at the end of the run fails it if a dist/ it reads was rewritten meanwhile (its tests would have
// read two builds). The root's `pnpm server` runs it with `--when-stale`, which also builds when a
// source is newer than the build; inside a test run (RAIDER_TEST_RUN, set by vitest.base.ts for
// every test and what it starts) it refuses to build instead, saying what to build first.
// Build output goes to stderr: over stdio, stdout is the protocol's alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The workspace a package folder is in: packages sit one level down (`packages/<name>`, `apps/<name>`). */
const workspaceOf = (packageDir) => resolve(packageDir, '..', '..');
/** What is not an input of a build: its output, tests, docs, caches. */
const notInput = /(^|\/)(node_modules|dist|\.turbo|test|test-results|coverage)(\/|$)|\.(test|bench)\.ts$|\.md$/;

/** The workspace's packages (under `root`) by name: their folder and manifest. */
function workspacePackages(root) {
  const found = new Map();
  for (const group of ['packages', 'apps', 'tools']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir)) {
      const manifestPath = join(groupDir, name, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      found.set(manifest.name, { dir: join(groupDir, name), manifest });
    }
  }
  return found;
}

/** The package at `dir` and every workspace package it reaches through `workspace:` specifiers. */
function withWorkspaceDependencies(dir, all) {
  const byDir = [...all.values()].find((entry) => entry.dir === dir);
  if (!byDir) return [];
  const seen = new Map([[byDir.manifest.name, byDir]]);
  const queue = [byDir];
  while (queue.length > 0) {
    const { manifest } = queue.shift();
    const specs = { ...manifest.peerDependencies, ...manifest.devDependencies, ...manifest.dependencies };
    for (const [name, spec] of Object.entries(specs)) {
      const entry = all.get(name);
      if (!String(spec).startsWith('workspace:') || !entry || seen.has(name)) continue;
      seen.set(name, entry);
      queue.push(entry);
    }
  }
  return [...seen.values()];
}

/** Every file below `dir` whose path (relative to `base`) `keep` accepts, with its stat. */
function filesBelow(dir, keep = () => true, base = dir, found = []) {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!keep(path.slice(base.length + 1))) continue;
    if (entry.isDirectory()) filesBelow(path, keep, base, found);
    else if (entry.isFile()) found.push({ path, stat: statSync(path) });
  }
  return found;
}

/** When `dir`'s build was made: its newest output, or the time it was marked current (0: none). */
function builtAt(dir) {
  const dist = join(dir, 'dist');
  if (!existsSync(dist)) return 0;
  return Math.max(statSync(dist).mtimeMs, ...filesBelow(dist).map(({ stat }) => stat.mtimeMs));
}

/** The most recently modified of `files` (each with its stat), or undefined for none. */
const latestOf = (files) =>
  files.reduce((latest, file) => (file.stat.mtimeMs > (latest?.stat.mtimeMs ?? 0) ? file : latest), undefined);

/** The newest file of `entries`' sources (their folders minus what is not an input), or undefined. */
const newestSource = (entries) =>
  latestOf(entries.flatMap((entry) => filesBelow(entry.dir, (path) => !notInput.test(path))));

/**
 * The build of the package in `packageDir` and of the workspace packages it uses, as they are now:
 * its `name`; `chain`, the folders of those that have a build of their own; `missing`, the names of
 * those whose dist/ is missing; `newerSource`, the path (from `root`) of a source newer than the
 * build made from it, else undefined. Each build is made from its package's own sources and those
 * of the packages it reaches that have no build of their own (the internal kit, bundled into it);
 * a package it uses through its build is not one of them (a newer build of a dependency does not
 * make it stale). `root` is the workspace, by default the folder two levels above `packageDir`;
 * the other functions take it too.
 */
export function buildState(packageDir, { root = workspaceOf(packageDir) } = {}) {
  const all = workspacePackages(root);
  const reached = withWorkspaceDependencies(resolve(packageDir), all);
  const withBuild = reached.filter((entry) => entry.manifest.scripts?.build);
  const builds = withBuild.map((entry) => builtAt(entry.dir));
  const missing = withBuild.filter((_, index) => builds[index] === 0).map((entry) => entry.manifest.name);
  const newer = withBuild.flatMap((entry, index) => {
    const bundled = withWorkspaceDependencies(entry.dir, all).filter((used) => !used.manifest.scripts?.build);
    const newest = newestSource([entry, ...bundled]);
    return newest && newest.stat.mtimeMs > builds[index] ? [newest] : [];
  });
  const newest = latestOf(newer);
  const newerSource = newest ? relative(root, newest.path) : undefined;
  return { name: reached[0]?.manifest.name, chain: withBuild.map((entry) => entry.dir), missing, newerSource };
}

/**
 * Builds the package in `packageDir` and the workspace packages it uses (`turbo run build
 * --filter=<name>...`) when one of them that has a build has none yet, or, with `whenStale`, when
 * a source of any of them is newer than the oldest of their builds. Returns whether it built.
 * With `refuse` (inside a test run) it builds nothing.
 * @throws Error saying what is missing or stale and what to build first, when `refuse` is set and
 *   a build was needed.
 */
export function ensureBuilt(packageDir, { whenStale = false, refuse = false, root = workspaceOf(packageDir) } = {}) {
  const state = buildState(packageDir, { root });
  if (state.chain.length === 0) return false;
  const why =
    state.missing.length > 0
      ? `${state.missing.join(', ')} has no build`
      : whenStale && state.newerSource
        ? `${state.newerSource} is newer than the build`
        : undefined;
  if (!why) return false;
  if (refuse)
    throw new Error(
      `${state.name}: ${why}, and nothing builds during a test run (its tests would read two builds): build first (pnpm --filter ${state.name}... build), then test`,
    );
  execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', `--filter=${state.name}...`, '--output-logs=errors-only'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  // A build replayed from turbo's cache keeps its old times: mark each current, so the next run
  // does not build again.
  const now = new Date();
  for (const dir of state.chain) if (existsSync(join(dir, 'dist'))) utimesSync(join(dir, 'dist'), now, now);
  return true;
}

/**
 * What the builds the package in `packageDir` reads are made of: each file of their dist/ folders
 * (its path from `root`, in order) with its size and modification time. A rebuild, even of the
 * same bytes, changes it.
 */
export function buildPrint(packageDir, { root = workspaceOf(packageDir) } = {}) {
  const files = buildState(packageDir, { root }).chain.flatMap((dir) => filesBelow(join(dir, 'dist')));
  const print = files.map(({ path, stat }) => [relative(root, path), `${stat.size}:${stat.mtimeMs}`]);
  return new Map(print.sort(([left], [right]) => (left < right ? -1 : 1)));
}

/** The files of `after` that `before` did not have, or had otherwise, and those it had that are gone. */
export function changedFiles(before, after) {
  const changed = [...after].filter(([path, made]) => before.get(path) !== made).map(([path]) => path);
  return [...changed, ...[...before.keys()].filter((path) => !after.has(path))];
}

/** The packages whose stale build this process has named already. */
const warned = new Set();

/**
 * vitest's global setup: the package under test (its root) and what it uses are built when
 * unbuilt; a build older than its sources is named; the teardown sets the run's exit code to 1
 * when a dist/ those tests read changed during the run.
 */
export default function setup(project) {
  const packageDir = project?.config?.root ?? process.cwd();
  ensureBuilt(packageDir);
  const { name, newerSource } = buildState(packageDir);
  // Said once a run, though each vitest project (unit, e2e) runs this setup.
  if (newerSource && !warned.has(packageDir)) {
    warned.add(packageDir);
    console.warn(
      `${name}: ${newerSource} is newer than the build these tests read; nothing builds during a run: build first (pnpm --filter ${name}... build, or pnpm turbo run test --filter=${name})`,
    );
  }
  const before = buildPrint(packageDir);
  return () => {
    const changed = changedFiles(before, buildPrint(packageDir));
    if (changed.length === 0) return;
    const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
    console.error(
      `${name}: a build was rewritten during this test run (${shown}): tests that ran before it read another build. Build before the run; nothing may build during it`,
    );
    process.exitCode = 1;
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [packageDir, flag] = process.argv.slice(2);
  if (!packageDir) {
    console.error('usage: node scripts/ensure-built.mjs <package folder> [--when-stale]');
    process.exit(2);
  }
  try {
    ensureBuilt(resolve(repositoryRoot, packageDir), {
      whenStale: flag === '--when-stale',
      refuse: Boolean(process.env.RAIDER_TEST_RUN),
    });
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
