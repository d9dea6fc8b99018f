import { packageTests } from '../../vitest.base.js';

// The board's browser tests get their Chromium from the npm registry (unpacked once); the database
// tests get a PostgreSQL from the npm registry too (or RAIDER_TEST_DATABASE_URL).
export default packageTests(import.meta.url, {
  hookTimeout: 120_000,
  globalSetup: ['test/chromium-setup.ts', 'test/postgres-setup.ts'],
});
