// A real npm registry on loopback for the release test: Verdaccio (from the npm registry, a
// devDependency of this package), its storage in the test's temporary folder, one throwaway user.
// @raider/* is served from that storage only (no uplink: a name the release did not publish is a
// 404, never the public registry's); every other package comes from the public registry through
// an uplink, whose copies are kept in a cache folder across runs so that installs are quick.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { rootCertificates } from 'node:tls';
import { start, stop, tail } from './run.js';

/** The registry the public packages come from, through Verdaccio's uplink. */
export const UPLINK = 'https://registry.npmjs.org/';

/** A running registry and how to use it. */
export interface Registry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The throwaway user's token (for `//127.0.0.1:<port>/:_authToken`). */
  token: string;
  user: string;
  /** What Verdaccio logged (warnings and errors), for a failure message. */
  log(): string;
  stop(): Promise<void>;
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

/**
 * The certificates Verdaccio's uplink trusts: Node's own and this machine's extra CA file (a
 * TLS-inspecting proxy's, named by NODE_EXTRA_CA_CERTS or SSL_CERT_FILE), so the uplink works
 * behind such a proxy as npm does with its `cafile`.
 */
function uplinkCertificates(env: Record<string, string>): string {
  const extra = [env.NODE_EXTRA_CA_CERTS, env.SSL_CERT_FILE]
    .filter((file): file is string => Boolean(file) && existsSync(file as string))
    .map((file) => readFileSync(file, 'utf8'));
  return [...rootCertificates, ...extra].join('\n');
}

/** Verdaccio's configuration (JSON, which its YAML reader takes as it is). */
function configuration(folder: string, uplinkCache: string, env: Record<string, string>): Record<string, unknown> {
  const storage = join(folder, 'storage');
  const proxy = env.https_proxy ?? env.HTTPS_PROXY;
  return {
    storage,
    auth: { htpasswd: { file: join(folder, 'htpasswd'), max_users: 1 } },
    uplinks: {
      npmjs: {
        url: UPLINK,
        ca: uplinkCertificates(env),
        ...(proxy ? { https_proxy: proxy, no_proxy: '127.0.0.1,localhost' } : {}),
        timeout: '120s',
        max_fails: 20,
        fail_timeout: '10s',
        maxage: '10m',
      },
    },
    packages: {
      // What the release publishes: stored in this run's storage, never asked of the uplink.
      '@raider/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
      // Everything else: from the public registry, kept in the shared cache; nobody publishes.
      '**': { access: '$all', publish: 'nobody', proxy: 'npmjs', storage: relative(storage, uplinkCache) },
    },
    max_body_size: '200mb',
    web: { enable: false },
    middlewares: { audit: { enabled: false } },
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
  };
}

/** The Verdaccio CLI this package depends on. */
function verdaccioBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('verdaccio/package.json')), 'bin', 'verdaccio');
}

async function waitUntilUp(url: string, child: ChildProcess, said: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`Verdaccio exited ${child.exitCode} before answering:\n${tail(said())}`);
    try {
      const answer = await fetch(new URL('-/ping', url), { signal: AbortSignal.timeout(5_000) });
      if (answer.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Verdaccio did not answer ${url}-/ping within ${timeoutMs / 1000} s:\n${tail(said())}`);
}

/**
 * Starts Verdaccio on a free loopback port with its storage in `folder` and the public packages'
 * copies in `uplinkCache`, and makes its one user (a throwaway name and password).
 * @throws Error with Verdaccio's output when it does not start or refuses the user.
 */
export async function startRegistry(
  folder: string,
  uplinkCache: string,
  env: Record<string, string>,
): Promise<Registry> {
  mkdirSync(folder, { recursive: true });
  mkdirSync(uplinkCache, { recursive: true });
  const config = join(folder, 'config.yaml');
  writeFileSync(config, JSON.stringify(configuration(folder, uplinkCache, env), null, 2));
  let lastError: unknown;
  // A port found free can be taken before Verdaccio binds it: then another.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const child = start(process.execPath, [verdaccioBin(), '--config', config, '--listen', `127.0.0.1:${port}`], {
      cwd: folder,
      env,
    });
    let said = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      said += chunk;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk;
    });
    try {
      await waitUntilUp(url, child, () => said, 120_000);
    } catch (error) {
      lastError = error;
      await stop(child);
      continue;
    }
    const user = `release-${randomBytes(4).toString('hex')}`;
    const password = randomBytes(18).toString('base64url');
    const added = await fetch(new URL(`-/user/org.couchdb.user:${user}`, url), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: user, password }),
    });
    const body = (await added.json()) as { token?: string; error?: string };
    if (!added.ok || !body.token) {
      await stop(child);
      throw new Error(`Verdaccio refused the user ${user}: ${added.status} ${JSON.stringify(body)}`);
    }
    // A throwaway registry: no need to wait for its keep-alive connections to close.
    return { url, token: body.token, user, log: () => said, stop: () => stop(child, 3_000) };
  }
  throw lastError;
}

/** An `.npmrc` naming only `registry` (and, for a maintainer, the token for it). */
export function npmrc(
  registry: Registry,
  { withToken = false, cache }: { withToken?: boolean; cache?: string } = {},
): string {
  const host = registry.url.replace(/^https?:/, '');
  return [
    `registry=${registry.url}`,
    ...(withToken ? [`${host}:_authToken=${registry.token}`] : []),
    ...(cache ? [`cache=${cache}`] : []),
    '',
  ].join('\n');
}

/** A package's document as the registry serves it, or the HTTP status it answered instead. */
export async function packument(registry: Registry, name: string): Promise<{ status: number; body?: Packument }> {
  const answer = await fetch(new URL(name.replace('/', '%2f'), registry.url), {
    headers: { accept: 'application/json' },
  });
  if (!answer.ok) return { status: answer.status };
  return { status: answer.status, body: (await answer.json()) as Packument };
}

/** The parts of a registry's package document the test reads. */
export interface Packument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, PublishedManifest>;
}

/** A published version's manifest, as the registry holds it. */
export interface PublishedManifest {
  name: string;
  version: string;
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
  dist: { tarball: string; integrity: string };
}
