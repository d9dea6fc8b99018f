import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The MCP App is one self-contained HTML file (hosts load it from a `ui://` resource, with no
 * other files): the bundle and its style are written into index.html, and nothing else is kept.
 */
function singleFile(): Plugin {
  return {
    name: 'raider-single-file',
    generateBundle(_options, bundle) {
      const chunk = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      if (chunk?.type !== 'chunk') throw new Error('no entry chunk');
      const html = readFileSync(`${here}index.html`, 'utf8')
        .replace('<!--style-->', '')
        // A `</script>` inside the code would end the element early: split it.
        .replace(
          '<!--script-->',
          () => `<script type="module">${chunk.code.replaceAll('</script', '<\\/script')}</script>`,
        );
      for (const name of Object.keys(bundle)) delete bundle[name];
      this.emitFile({ type: 'asset', fileName: 'index.html', source: html });
    },
  };
}

// The board as an MCP App: built into dist/board-app/index.html and served as ui://raider/board.
export default defineConfig({
  root: here,
  build: {
    outDir: '../dist/board-app',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    rollupOptions: { input: `${here}main.ts`, output: { codeSplitting: false } },
  },
  plugins: [singleFile()],
});
