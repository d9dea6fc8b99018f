// The one test configuration of the raider packages: each package's vitest.config.ts is one line,
// `export default packageTests(import.meta.url)`, with what only it needs (a global setup, an
// inlined dependency) as a second argument, and, for a package with end-to-end tests (test/: real
// processes, a browser, a database), what those need as a third; a package with scale checks adds
// vitest.large.config.ts, `export default packageLargeTests(import.meta.url, [glob])`.
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';
import { packageVersion } from './tsup.base.js';

/**
 * The global setup every package runs first: it builds the package and what it uses when unbuilt,
 * and fails the run if one of those builds is rewritten before it ends (scripts/ensure-built.mjs).
 */
const ensureBuilt = (packageUrl: string) => fileURLToPath(new URL('../../scripts/ensure-built.mjs', packageUrl));

/** The `test` options of a vitest config. */
export type TestOptions = NonNullable<ViteUserConfig['test']>;

/** What a package's end-to-end tests need beyond its unit tests. */
export interface EndToEndOptions {
  /** Global setups only they need (a PostgreSQL, a browser), run after the build's. */
  globalSetup?: string[];
  /** A hook budget of their own (starting a database takes longer than the default allows on a busy machine). */
  hookTimeout?: number;
}

/**
 * The options every test of `pnpm test` runs with. CI machines are small and busy (2 cores beside
 * other work): every test gets wide headroom over what it takes on a quiet machine (60 s a test
 * and a hook; heavy ones set their own budget beside them). Scale checks (`*.large.test.ts`) are
 * left out: they run alone in `pnpm test:large`. RAIDER_TEST_RUN tells what a test starts that a
 * run is under way (`pnpm server` then builds nothing: scripts/ensure-built.mjs).
 */
function everyTest(packageUrl: string, test: TestOptions): TestOptions {
  return {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    exclude: [...configDefaults.exclude, '**/*.large.test.ts'],
    ...test,
    env: { RAIDER_TEST_RUN: '1', ...test.env },
    globalSetup: [ensureBuilt(packageUrl), ...[test.globalSetup ?? []].flat()],
  };
}

/**
 * The vitest config of `pnpm test` for the package whose config file is at `packageUrl` (pass
 * `import.meta.url`), with `test` spread over the defaults of `everyTest` (its `globalSetup` runs
 * after the build's). `__PACKAGE_VERSION__` is defined as the build defines it (tsup.base.ts). The
 * global setup first builds the package and the workspace packages it uses when they have no build
 * yet (scripts/ensure-built.mjs), so `pnpm --filter <package> test` works on a fresh clone; it
 * never rebuilds a build that is there, and fails the run if one is rewritten during it.
 *
 * With `endToEnd`, the tests are two vitest projects, `unit` (src/: seconds, no process,
 * network, browser or database) and `e2e` (test/: processes, a browser, a database; with
 * `endToEnd`'s global setups and hook budget): `vitest run --project unit` is the package's
 * `test:unit`, `--project e2e` its `test:e2e`, and `vitest run` runs both with one summary line.
 */
export function packageTests(packageUrl: string, test: TestOptions = {}, endToEnd?: EndToEndOptions): ViteUserConfig {
  const define = { __PACKAGE_VERSION__: JSON.stringify(packageVersion(packageUrl)) };
  if (!endToEnd) return defineConfig({ define, test: everyTest(packageUrl, test) });
  const { globalSetup, hookTimeout } = endToEnd;
  const unit = everyTest(packageUrl, test);
  return defineConfig({
    define,
    test: {
      projects: [
        {
          extends: true,
          test: {
            ...unit,
            name: 'unit',
            include: ['src/**/*.test.ts'],
          },
        },
        {
          extends: true,
          test: {
            ...everyTest(packageUrl, { ...test, ...(hookTimeout ? { hookTimeout } : {}), globalSetup }),
            name: 'e2e',
            include: ['test/**/*.test.ts'],
          },
        },
      ],
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
  return defineConfig({
    define: { __PACKAGE_VERSION__: JSON.stringify(packageVersion(packageUrl)) },
    test: {
      ...everyTest(packageUrl, test),
      include,
      exclude: configDefaults.exclude,
      globalSetup: [ensureBuilt(packageUrl)],
      fileParallelism: false,
      testTimeout: 600_000,
      hookTimeout: 600_000,
    },
  });
}
