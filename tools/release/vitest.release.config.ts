import { defineConfig } from 'vitest/config';

// The release test (pnpm test:release): one file, its steps in order, each with a budget sized for
// a busy 2-core machine (a quiet one takes a fraction of it). No step asserts a speed.
export default defineConfig({
  test: {
    include: ['test/release.test.ts'],
    testTimeout: 10 * 60_000,
    hookTimeout: 10 * 60_000,
    fileParallelism: false,
  },
});
