// What a published package's files import, read as TypeScript reads it (comments and strings
// aside): every relative import must be a file of the tarball, every bare one a Node built-in, the
// package itself, or a package its manifest names (dependencies, peerDependencies).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** The files under `dir`, relative to it. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, base) : [relative(base, path)];
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * The imports of the unpacked package in `dir` (its package.json beside) that a user's install
 * could not satisfy: `file: specifier (why)` for each.
 */
export function undeclaredImports(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const problems: string[] = [];
  for (const file of filesUnder(dir).filter((name) => /\.(m?js|d\.m?ts)$/.test(name))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(dir, file), 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith('.')) {
        const target = join(dir, dirname(file), specifier);
        const candidates = [target, target.replace(/\.js$/, '.d.ts'), target.replace(/\.mjs$/, '.d.mts')];
        if (!candidates.some((candidate) => existsSync(candidate)))
          problems.push(`${file}: ${specifier} (no such file in the package)`);
      } else if (!isBuiltin(specifier) && !declared.has(packageOf(specifier))) {
        problems.push(`${file}: ${specifier} (${packageOf(specifier)} is neither a dependency nor a peer)`);
      }
    }
  }
  return problems;
}
