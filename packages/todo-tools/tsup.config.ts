import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts', 'src/conformance.ts'],
  format: ['esm'],
  target: 'node20',
  dts: { resolve: ['@raider/coded-error'] },
  sourcemap: true,
  clean: true,
  // The internal error kit is bundled in, so the published package does not depend on it.
  noExternal: ['@raider/coded-error'],
  // The version, not the whole package.json, goes into the bundle.
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
});
