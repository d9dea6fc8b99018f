import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `pnpm test:large`: the scale checks alone (files named *.large.test.ts), one file at a time,
// with budgets sized for a busy 2-core machine. `pnpm test` leaves them out. They start what they
// need themselves (messages-scale: a PostgreSQL of its own, to restart), so no global setup.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.large.test.ts'],
    exclude: configDefaults.exclude,
    globalSetup: [],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
