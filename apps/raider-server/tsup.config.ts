import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'node20',
  dts: { entry: 'src/index.ts', resolve: [/^@raider\/kit(\/|$)/] },
  sourcemap: true,
  clean: true,
  // The internal kit (@raider/kit) is bundled in, so the published package does not depend on it.
  noExternal: ['@raider/kit'],
  // The version, not the whole package.json, goes into the bundle.
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
});
