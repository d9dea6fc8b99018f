import { defineConfig } from 'vitest/config';

// CI machines are small and busy (2 cores beside other work): every test gets wide headroom
// over what it takes on a quiet machine, and heavy ones set their own budget beside them.
// The tests run against a real PostgreSQL (test/global-setup.ts).
export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 120_000, globalSetup: ['test/global-setup.ts'] },
});
