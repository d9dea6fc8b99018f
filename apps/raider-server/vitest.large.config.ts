import { packageLargeTests } from '../../vitest.base.js';

// Scale checks that start what they need themselves (messages-scale: a PostgreSQL of its own, to
// restart), so the global setup of `pnpm test` does not run.
export default packageLargeTests(import.meta.url, ['test/**/*.large.test.ts']);
