import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The board's page: built into dist/board and shipped inside the server package.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  build: { outDir: '../dist/board', emptyOutDir: true, target: 'es2022' },
});
