import { packageTests } from '../../vitest.base.js';

// Unit tests in src/ (test:unit); the tests against a real PostgreSQL in test/ (test:e2e), one
// server for the run (test/global-setup.ts).
export default packageTests(import.meta.url, {}, { hookTimeout: 120_000, globalSetup: ['test/global-setup.ts'] });
