import { defineConfig } from 'tsup';

export default defineConfig({
  // `.` is the registry and the stores; `./conformance` the MessageStore contract as a test suite.
  entry: { index: 'src/index.ts', conformance: 'src/conformance.ts' },
  format: ['esm'],
  target: 'node20',
  dts: { resolve: [/^@raider\/kit(\/|$)/] },
  sourcemap: true,
  clean: true,
  // The internal kit (@raider/kit) is bundled in, so the published package does not depend on it.
  noExternal: ['@raider/kit'],
});
