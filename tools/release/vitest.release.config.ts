import { packageLargeTests } from '../../vitest.base.js';

// The release test (pnpm test:release): one file, its steps in order, each with a budget sized for
// a busy 2-core machine (a quiet one takes a fraction of it). No step asserts a speed.
export default packageLargeTests(import.meta.url, ['test/release.test.ts']);
