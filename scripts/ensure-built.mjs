// Builds a workspace package and the workspace packages it uses when their build is missing, so
// `pnpm --filter <package> test` works on a fresh clone as it does under `pnpm test` (where turbo
// builds first). Every package's vitest config runs it as a global setup (vitest.base.ts); the
// root's `pnpm server` runs it with `--when-stale`, which also builds when a source is newer than
// the build. When the builds are there (and current) it touches nothing: a build rewrites dist/
// under tests of other packages that may be reading it at that moment.
// Build output goes to stderr: over stdio, stdout is the protocol's alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What is not an input of a build: its output, tests, docs, caches. */
const notInput = /(^|\/)(node_modules|dist|\.turbo|test|test-results|coverage)(\/|$)|\.(test|bench)\.ts$|\.md$/;

/** The workspace's packages by name: their folder and manifest. */
function workspacePackages() {
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

/** The newest modification time of the files below `dir` whose path `keep` accepts (0 for none). */
function newest(dir, keep = () => true, base = dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const relative = path.slice(base.length + 1);
    if (!keep(relative)) continue;
    if (entry.isDirectory()) latest = Math.max(latest, newest(path, keep, base));
    else if (entry.isFile()) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/** When `dir`'s build was made: its newest output, or the time it was marked current. */
function builtAt(dir) {
  const dist = join(dir, 'dist');
  return existsSync(dist) ? Math.max(newest(dist), statSync(dist).mtimeMs) : 0;
}

/**
 * Builds the package in `packageDir` and the workspace packages it uses (`turbo run build
 * --filter=<name>...`) when one of them that has a build has none yet, or, with `whenStale`, when
 * a source of any of them is newer than the oldest of their builds. The packages without a build of
 * their own count as sources (the internal kit, bundled into each build that uses it). Returns
 * whether it built.
 */
export function ensureBuilt(packageDir, { whenStale = false } = {}) {
  const reached = withWorkspaceDependencies(resolve(packageDir), workspacePackages());
  const chain = reached.filter((entry) => entry.manifest.scripts?.build);
  if (chain.length === 0) return false;
  const builds = chain.map((entry) => builtAt(entry.dir));
  const missing = builds.includes(0);
  const sources = () => Math.max(...reached.map((entry) => newest(entry.dir, (path) => !notInput.test(path))));
  if (!missing && !(whenStale && sources() > Math.min(...builds))) return false;
  const name = reached[0].manifest.name;
  execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', `--filter=${name}...`, '--output-logs=errors-only'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  // A build replayed from turbo's cache keeps its old times: mark each current, so the next run
  // does not build again.
  const now = new Date();
  for (const entry of chain) if (existsSync(join(entry.dir, 'dist'))) utimesSync(join(entry.dir, 'dist'), now, now);
  return true;
}

/** vitest's global setup: the package under test (its root) and what it uses are built. */
export default function setup(project) {
  ensureBuilt(project?.config?.root ?? process.cwd());
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [packageDir, flag] = process.argv.slice(2);
  if (!packageDir) {
    console.error('usage: node scripts/ensure-built.mjs <package folder> [--when-stale]');
    process.exit(2);
  }
  ensureBuilt(join(root, packageDir), { whenStale: flag === '--when-stale' });
}
