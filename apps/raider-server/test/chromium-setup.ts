/**
 * Vitest global setup: a Chromium for the board's browser tests from the npm registry, so
 * `pnpm test` needs nothing but Node and npm. `@sparticuz/chromium` ships a headless Chromium
 * (brotli-compressed) inside its package; it is unpacked once into node_modules/.cache and shared
 * by every later run. `RAIDER_CHROMIUM=/path/to/chrome` uses another browser instead.
 *
 * Two runs may start at once (CI beside a developer's run): each unpacks into a folder of its
 * own and renames it into place; the loser of the rename uses the winner's copy.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium executable the browser tests launch. */
    chromium: string;
    /** FONTCONFIG_PATH for that Chromium (empty for a browser of the system's). */
    chromiumFonts: string;
  }
}

const CACHE = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));

/** The version of an installed package (its package.json is not among its exports). */
function packageVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  while (
    !existsSync(join(dir, 'package.json')) ||
    !readFileSync(join(dir, 'package.json'), 'utf8').includes(`"${name}"`)
  ) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the package.json of ${name}`);
    dir = parent;
  }
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Unpacks @sparticuz/chromium into the cache (once) and returns its folder. */
async function unpackedChromium(): Promise<string> {
  const version = packageVersion('@sparticuz/chromium');
  const home = join(CACHE, `sparticuz-chromium-${version}`);
  if (existsSync(join(home, 'ready'))) return home;
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, 'chromium-unpacking-'));
  // The package unpacks into os.tmpdir(), which reads TMPDIR on every call: point it at our
  // own folder for the time of the unpacking, so nothing is shared with another run's /tmp.
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    await chromium.executablePath();
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  // The package's fonts.conf names /tmp/fonts; ours names the fonts where they are.
  writeFileSync(
    join(staging, 'fonts', 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(home, 'fonts')}</dir>\n  <cachedir>${join(home, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  writeFileSync(join(staging, 'ready'), `${version}\n`);
  try {
    renameSync(staging, home);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(home, 'ready'))) throw error;
  }
  return home;
}

export async function setup(project: TestProject): Promise<void> {
  const own = process.env.RAIDER_CHROMIUM;
  if (own) {
    project.provide('chromium', own);
    project.provide('chromiumFonts', '');
    return;
  }
  const home = await unpackedChromium();
  project.provide('chromium', join(home, 'chromium'));
  project.provide('chromiumFonts', join(home, 'fonts'));
}
