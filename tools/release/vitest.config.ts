import { defineConfig } from 'vitest/config';

// The quick checks of the release test's own logic (pnpm test); the release itself is
// vitest.release.config.ts (pnpm test:release).
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
