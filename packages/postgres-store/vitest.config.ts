import { packageTests } from '../../vitest.base.js';

// The tests run against a real PostgreSQL (test/global-setup.ts).
export default packageTests(import.meta.url, { hookTimeout: 120_000, globalSetup: ['test/global-setup.ts'] });
