import { defineConfig } from 'vitest/config';

// CI machines are small and busy (2 cores beside other work): every test gets wide headroom
// over what it takes on a quiet machine, and heavy ones set their own budget beside them.
export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 60_000 },
});
