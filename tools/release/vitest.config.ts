import { packageTests } from '../../vitest.base.js';

// The quick checks of the release test's own logic (pnpm test); the release itself is
// vitest.release.config.ts (pnpm test:release).
export default packageTests(import.meta.url, { include: ['src/**/*.test.ts'] });
