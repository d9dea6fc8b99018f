// The one build configuration of the raider packages: each package's tsup.config.ts is one line,
// `export default packageBuild(import.meta.url, { entry: … })`, naming only its entries (and, for
// the server and the playground, what differs in their .d.ts). What every package shares is here:
// ESM for Node 20, source maps, the internal kit bundled in (decision 0003), and the version
// injected at build time.
import { readFileSync } from 'node:fs';
import type { Options } from 'tsup';

/** What a package says about its build: its entries, and how its `.d.ts` differ from the rest. */
export interface PackageBuild {
  /** The entries, as tsup takes them (`{ index: 'src/index.ts', v2: 'src/v2/index.ts' }`). */
  entry: NonNullable<Options['entry']>;
  /**
   * `false`: no `.d.ts` (an app nobody imports). `{ entry }`: `.d.ts` for those entries only (the
   * server's bin has none). Left out: a `.d.ts` for every entry.
   */
  dts?: false | { entry: string };
}

/**
 * The tsup options of the package whose config file is at `packageUrl` (pass `import.meta.url`):
 * `build`'s entries, ESM for Node 20, source maps, a clean `dist/`, `@raider/kit` bundled into the
 * JavaScript and the `.d.ts` (so no published package depends on it), and `__PACKAGE_VERSION__`
 * defined as the package's version (so the bundle does not carry package.json).
 */
export function packageBuild(packageUrl: string, build: PackageBuild): Options {
  const kit = [/^@raider\/kit(\/|$)/];
  return {
    entry: build.entry,
    format: ['esm'],
    target: 'node20',
    dts: build.dts === false ? false : { ...build.dts, resolve: kit },
    sourcemap: true,
    clean: true,
    noExternal: kit,
    define: { __PACKAGE_VERSION__: JSON.stringify(packageVersion(packageUrl)) },
  };
}

/** The `version` of the package.json beside the file at `packageUrl`. */
export function packageVersion(packageUrl: string): string {
  const manifest = JSON.parse(readFileSync(new URL('./package.json', packageUrl), 'utf8')) as { version: string };
  return manifest.version;
}
