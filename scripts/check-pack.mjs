// What a user gets from `npm install <package>`: packs the package in the current folder (and
// the workspace packages it depends on, which are not published yet), installs the tarballs into
// an empty project with nothing else, checks that no installed file of it imports the internal kit
// (@raider/kit, bundled, never published: decision 0003), imports the package and, for one with a
// `bin`, runs it with --version. Every published package's `check:package` runs it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const readManifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** An import of the internal kit or one of its entries, in built JavaScript or declarations. */
const KIT_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]@raider\/kit(?:\/[^'"]*)?['"]/;

/** The files under `dir` (recursively) that import the internal kit, relative to `dir`. */
function kitImporters(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : kitImporters(path, base);
    if (!/\.(m?js|d\.m?ts)$/.test(entry.name)) return [];
    return KIT_IMPORT.test(readFileSync(path, 'utf8')) ? [path.slice(base.length + 1)] : [];
  });
}

/** Folders of the workspace packages, by name. */
const workspace = new Map(
  ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .filter((name) => existsSync(join(root, group, name, 'package.json')))
      .map((name) => [readManifest(join(root, group, name)).name, join(root, group, name)]),
  ),
);

/** The package in `dir` and, recursively, the workspace packages it depends on (or takes as peers). */
function withWorkspaceDependencies(dir, seen = new Set()) {
  if (seen.has(dir)) return [];
  seen.add(dir);
  const { dependencies = {}, peerDependencies = {} } = readManifest(dir);
  // A workspace peer (a store's @raider/todo-tools) is one a user installs beside it: pack it too.
  const deps = Object.entries({ ...dependencies, ...peerDependencies })
    .filter(([, range]) => String(range).startsWith('workspace:'))
    .flatMap(([name]) => withWorkspaceDependencies(workspace.get(name), seen));
  return [dir, ...deps];
}

const here = process.cwd();
const manifest = readManifest(here);
const project = mkdtempSync(join(tmpdir(), 'raider-pack-'));
try {
  const tarballs = withWorkspaceDependencies(here).map((dir) => {
    const before = new Set(readdirSync(project));
    execFileSync('pnpm', ['pack', '--pack-destination', project], { cwd: dir, stdio: 'ignore' });
    const made = readdirSync(project).find((file) => file.endsWith('.tgz') && !before.has(file));
    if (!made) throw new Error(`pnpm pack wrote no tarball for ${dir}`);
    return join(project, made);
  });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'empty-project', private: true, type: 'module' }),
  );
  // Peers (the MCP SDK, zod) come from the registry, as they would for a user. Optional peers
  // (both SDK majors of a package with one entry per major) are installed as a user of both would;
  // a package's own check-peers script tries each alone.
  const optional = Object.entries(manifest.peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta?.optional)
    .map(([name]) => `${name}@${manifest.peerDependencies?.[name] ?? 'latest'}`);
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', ...tarballs, ...optional], {
    cwd: project,
    encoding: 'utf8',
  });
  const said = `${install.stdout}${install.stderr}`;
  if (install.status !== 0) throw new Error(`npm install failed:\n${said}`);
  if (/peer dep|ERESOLVE|unmet peer/i.test(said)) throw new Error(`npm warned about a peer:\n${said}`);
  const leaked = kitImporters(join(project, 'node_modules', ...manifest.name.split('/')));
  if (leaked.length)
    throw new Error(`these files import the internal kit, which is never published: ${leaked.join(', ')}`);
  const probe = `const api = await import(${JSON.stringify(manifest.name)});
if (Object.keys(api).length === 0) { console.error('the package exports nothing'); process.exit(1); }`;
  writeFileSync(join(project, 'probe.mjs'), probe);
  execFileSync('node', ['probe.mjs'], { cwd: project, stdio: 'inherit' });
  for (const bin of Object.keys(manifest.bin ?? {})) {
    const version = execFileSync(join(project, 'node_modules', '.bin', bin), ['--version'], {
      encoding: 'utf8',
    }).trim();
    if (version !== manifest.version)
      throw new Error(`${bin} --version printed ${version}, expected ${manifest.version}`);
  }
  console.log(`packed ${manifest.name} and used it from an empty project`);
} finally {
  rmSync(project, { recursive: true, force: true });
}
