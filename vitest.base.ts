// The one test configuration of the raider packages: each package's vitest.config.ts is one line,
// `export default packageTests(import.meta.url)`, with what only it needs (a global setup, an
// inlined dependency) as a second argument; a package with scale checks adds
// vitest.large.config.ts, `export default packageLargeTests(import.meta.url, [glob])`.
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';
import { packageVersion } from './tsup.base.js';

/** The global setup every package runs first: it builds the package and what it uses when unbuilt. */
const ensureBuilt = (packageUrl: string) => fileURLToPath(new URL('../../scripts/ensure-built.mjs', packageUrl));

/** The `test` options of a vitest config. */
export type TestOptions = NonNullable<ViteUserConfig['test']>;

/**
 * The vitest config of `pnpm test` for the package whose config file is at `packageUrl` (pass
 * `import.meta.url`). CI machines are small and busy (2 cores beside other work): every test gets
 * wide headroom over what it takes on a quiet machine (60 s a test and a hook; heavy ones set their
 * own budget beside them). Scale checks (`*.large.test.ts`) are left out: they run alone in
 * `pnpm test:large`. `__PACKAGE_VERSION__` is defined as the build defines it (tsup.base.ts).
 * Its global setup first builds the package and the workspace packages it uses when they have no
 * build yet (scripts/ensure-built.mjs), so `pnpm --filter <package> test` works on a fresh clone.
 * `test` is spread over these defaults (a longer hook budget, …); its `globalSetup` runs after.
 */
export function packageTests(packageUrl: string, test: TestOptions = {}): ViteUserConfig {
  return defineConfig({
    define: { __PACKAGE_VERSION__: JSON.stringify(packageVersion(packageUrl)) },
    test: {
      testTimeout: 60_000,
      hookTimeout: 60_000,
      exclude: [...configDefaults.exclude, '**/*.large.test.ts'],
      ...test,
      globalSetup: [ensureBuilt(packageUrl), ...[test.globalSetup ?? []].flat()],
    },
  });
}

/**
 * The vitest config of a run apart from `pnpm test`: the files matching `include` alone (a
 * package's `*.large.test.ts` for `pnpm test:large`; the release test for `pnpm test:release`),
 * one file at a time, with budgets sized for a busy 2-core machine (10 min a
 * test and a hook). They start what they need themselves, so of the global setups only the build's
 * runs.
 */
export function packageLargeTests(packageUrl: string, include: string[], test: TestOptions = {}): ViteUserConfig {
  const base = packageTests(packageUrl, test);
  return defineConfig({
    ...base,
    test: {
      ...base.test,
      include,
      exclude: configDefaults.exclude,
      globalSetup: [ensureBuilt(packageUrl)],
      fileParallelism: false,
      testTimeout: 600_000,
      hookTimeout: 600_000,
    },
  });
}
