// The versions a release must make, worked out from the changeset files and the manifests alone,
// without changesets' code: what the release test compares `changeset version` against.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

export type Bump = 'major' | 'minor' | 'patch';

/** A workspace package as the release sees it. */
export interface WorkspacePackage {
  name: string;
  version: string;
  private: boolean;
  dir: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

const ORDER: Record<Bump | 'none', number> = { none: 0, patch: 1, minor: 2, major: 3 };

/**
 * The bumps one changeset file asks for, from its front matter (`'@raider/x': minor` lines
 * between the first two `---` lines).
 * @throws Error when the file has no front matter or a line of it is not `name: bump`.
 */
export function parseChangeset(text: string, file = 'changeset'): Map<string, Bump | 'none'> {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---')
    throw new Error(`${file}: expected front matter (a first line ---), received ${JSON.stringify(lines[0])}`);
  const end = lines.indexOf('---', 1);
  if (end < 0) throw new Error(`${file}: the front matter has no closing ---`);
  const bumps = new Map<string, Bump | 'none'>();
  for (const line of lines.slice(1, end)) {
    if (!line.trim()) continue;
    const match = /^\s*(['"]?)([^'"]+)\1\s*:\s*(major|minor|patch|none)\s*$/.exec(line);
    if (!match?.[2] || !match[3])
      throw new Error(`${file}: expected "name": major|minor|patch|none, received ${JSON.stringify(line)}`);
    bumps.set(match[2], match[3] as Bump | 'none');
  }
  return bumps;
}

/** The highest bump each package is given over every changeset in `.changeset/` (README.md aside). */
export function readChangesets(root: string): Map<string, Bump> {
  const folder = join(root, '.changeset');
  const highest = new Map<string, Bump>();
  for (const file of readdirSync(folder).sort()) {
    if (!file.endsWith('.md') || file === 'README.md') continue;
    for (const [name, bump] of parseChangeset(readFileSync(join(folder, file), 'utf8'), file)) {
      if (bump === 'none') continue;
      const before = highest.get(name);
      if (!before || ORDER[bump] > ORDER[before]) highest.set(name, bump);
    }
  }
  return highest;
}

/** The packages of the workspace (`packages/*`, `apps/*`, `tools/*`), by name. */
export function readWorkspace(root: string): Map<string, WorkspacePackage> {
  const found = new Map<string, WorkspacePackage>();
  for (const group of ['packages', 'apps', 'tools']) {
    let names: string[];
    try {
      names = readdirSync(join(root, group));
    } catch {
      continue;
    }
    for (const name of names) {
      const dir = join(root, group, name);
      let manifest: Record<string, unknown>;
      try {
        manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      } catch {
        continue;
      }
      found.set(String(manifest.name), {
        name: String(manifest.name),
        version: String(manifest.version),
        private: manifest.private === true,
        dir,
        dependencies: (manifest.dependencies ?? {}) as Record<string, string>,
        peerDependencies: (manifest.peerDependencies ?? {}) as Record<string, string>,
      });
    }
  }
  return found;
}

/**
 * The range a `workspace:` specifier stands for once published, as pnpm publish writes it
 * (`workspace:^` with the dependency at 0.1.0 is `^0.1.0`, `workspace:0.x` is `0.x`).
 */
export function publishedRange(specifier: string, dependencyVersion: string): string {
  if (!specifier.startsWith('workspace:')) return specifier;
  const range = specifier.slice('workspace:'.length);
  if (range === '*') return dependencyVersion;
  if (range === '^' || range === '~') return `${range}${dependencyVersion}`;
  return range;
}

/** What a release must do to one package. */
export interface ExpectedRelease {
  name: string;
  from: string;
  /** The version it must have after `changeset version`: `from` when it is not released. */
  to: string;
  /** Why: the changesets' bump, or the dependency whose new version its range leaves. */
  reason: string;
}

/**
 * The version every public package must get, read from the changesets and the manifests:
 * - a package a changeset names gets exactly its highest bump (a peer's bump never adds to it:
 *   that is the 1.0.0 the issue found);
 * - a package no changeset names is released only when a range in its `dependencies` no longer
 *   admits the new version of a package released with it (a patch, to publish the new range);
 * - a package whose peer range leaves a released package's new version is an error: the release
 *   would have to make it a major no changeset asked for.
 * Private and ignored packages are left out.
 * @throws Error naming the package and the peer when a peer range is left.
 */
export function expectedReleases(
  workspace: Map<string, WorkspacePackage>,
  bumps: Map<string, Bump>,
  ignore: readonly string[] = [],
): ExpectedRelease[] {
  const released = new Map<string, ExpectedRelease>();
  const published = [...workspace.values()].filter((pkg) => !pkg.private && !ignore.includes(pkg.name));
  for (const pkg of published) {
    const bump = bumps.get(pkg.name);
    if (bump)
      released.set(pkg.name, {
        name: pkg.name,
        from: pkg.version,
        to: semver.inc(pkg.version, bump) ?? '',
        reason: `changesets: ${bump}`,
      });
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const pkg of published) {
      for (const [kind, ranges] of [
        ['dependencies', pkg.dependencies],
        ['peerDependencies', pkg.peerDependencies],
      ] as const) {
        for (const [name, specifier] of Object.entries(ranges)) {
          const dependency = released.get(name);
          const current = workspace.get(name);
          if (!dependency || !current) continue;
          const range = publishedRange(specifier, current.version);
          if (semver.satisfies(dependency.to, range)) continue;
          if (kind === 'peerDependencies') {
            throw new Error(
              `${pkg.name}: its peer range ${JSON.stringify(range)} for ${name} (${specifier}) does not admit ${name}@${dependency.to}: the release would make ${pkg.name} a major no changeset asked for; widen the range`,
            );
          }
          if (released.has(pkg.name)) continue;
          released.set(pkg.name, {
            name: pkg.name,
            from: pkg.version,
            to: semver.inc(pkg.version, 'patch') ?? '',
            reason: `its dependency range ${range} leaves ${name}@${dependency.to}`,
          });
          changed = true;
        }
      }
    }
  }
  return published
    .map(
      (pkg) => released.get(pkg.name) ?? { name: pkg.name, from: pkg.version, to: pkg.version, reason: 'not released' },
    )
    .sort((left, right) => left.name.localeCompare(right.name));
}
