// Each entry is a leaf of its own SDK: `.` (src/index.ts) reaches the v1 SDK and never v2, `./v2`
// (src/v2/index.ts) reaches v2 and never v1, and the core both share imports neither. Read from
// the sources, types included, so an `import type` of the wrong SDK fails here before it reaches
// a .d.ts (scripts/check-peers.mjs checks the built .d.ts files too).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = dirname(fileURLToPath(import.meta.url));
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|(?:^|\n)\s*import\s*'([^']+)'/g;

/** The specifiers one source file imports or re-exports, types included. */
function specifiers(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((match) => (match[1] ?? match[2]) as string);
}

/** Every package `entry` reaches through its relative imports, and the files it reaches. */
function reach(entry: string): { packages: Set<string>; files: Set<string> } {
  const packages = new Set<string>();
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of specifiers(file)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(join(src, entry));
  return { packages, files };
}

const sdk = (packages: Set<string>) => [...packages].filter((name) => name.startsWith('@modelcontextprotocol/'));

describe('entries', () => {
  it('`.` reaches the v1 SDK only', () => {
    const used = sdk(reach('index.ts').packages);
    expect(used.length).toBeGreaterThan(0);
    expect(used.every((name) => name.startsWith('@modelcontextprotocol/sdk/'))).toBe(true);
  });

  it('`./v2` reaches @modelcontextprotocol/server only', () => {
    expect(sdk(reach('v2/index.ts').packages)).toEqual(['@modelcontextprotocol/server']);
  });

  it('the core imports neither SDK, and both entries share it', () => {
    const core = readdirSync(join(src, 'core')).filter((name) => name.endsWith('.ts') && !name.includes('.test.'));
    for (const name of core) expect(sdk(new Set(specifiers(join(src, 'core', name)))), name).toEqual([]);
    const v1 = reach('index.ts').files;
    const v2 = reach('v2/index.ts').files;
    const shared = [...v1].filter((file) => v2.has(file)).map((file) => file.slice(src.length + 1));
    expect(shared.every((file) => file.startsWith('core/'))).toBe(true);
    expect(shared).toContain('core/ask-user.ts');
    expect(shared).toContain('core/ask-user-question.ts');
  });
});
