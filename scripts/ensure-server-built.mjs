// `pnpm server` runs the built raider-server; this builds it first when the build is missing or
// older than a source of the server or of a package it composes. When the build is current it
// touches nothing (a build would rewrite dist/ under tests that run the server at that moment).
// Build output goes to stderr: over stdio, stdout is the protocol's alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'apps/raider-server/dist/cli.js');

/** The newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !/\.(test|bench)\.ts$/.test(entry.name))
      latest = Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return latest;
}

const sources = [
  'apps/raider-server/src',
  'apps/raider-server/board-page',
  ...readdirSync(join(root, 'packages')).map((name) => `packages/${name}/src`),
].map((dir) => join(root, dir));
const built = existsSync(cli) ? statSync(cli).mtimeMs : 0;
if (built === 0 || sources.some((dir) => newest(dir) > built)) {
  execFileSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@raider/server...', '--output-logs=errors-only'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  // A build replayed from turbo's cache keeps its old times: mark it current, so the next run
  // does not build again.
  const now = new Date();
  utimesSync(cli, now, now);
}
