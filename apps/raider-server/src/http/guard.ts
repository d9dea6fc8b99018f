/**
 * The guard in front of every HTTP request: the Host header (against DNS rebinding), the Origin
 * (a browser page from elsewhere), and the token, or the board's secret. It decides; the server
 * answers. Unit-tested in milliseconds with fake requests (guard.test.ts, beside it).
 *
 * Why not SDK v2's own checks (docs/decisions/0013-http-guard-not-the-sdks.md): none gives the
 * same answers, and the tests pin these.
 * - `hostHeaderValidation` (@modelcontextprotocol/node) compares the Host's hostname alone, whatever
 *   its port, and answers `Invalid Host: <hostname>`; this guard allows the bound port only (a
 *   `localhost:9999` that reaches this server through a proxy is refused), the names of every
 *   interface when bound to all, and answers `Forbidden: Host "<header>" is not allowed`.
 * - `originValidation` likewise compares the Origin's hostname alone (`Invalid Origin: <hostname>`);
 *   this one allows the server's own origins with their port and `--allowed-origins` as written.
 * - `requireBearerAuth` / `verifyBearerToken` (@modelcontextprotocol/server) are OAuth's: a token
 *   verifier, a token without an expiry time refused, OAuth's error JSON (`invalid_token`). raider
 *   has one static token, compared in constant time, answered as JSON-RPC, with the board's secret,
 *   its `?token=` login and cookie, its page for a person's browser, and OAuth's paths answered 404
 *   before the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import type { AgentTable } from '../credentials/agent-table.js';
import type { FailureLimiter } from '../credentials/failure-limit.js';
import { isLoopback } from '../options.js';
import { type Credential, checkCredential } from './credential-guard.js';

/** What the guard is set up with. */
export interface GuardOptions {
  /** The bound address. */
  host: string;
  /** The bound port. */
  port: number;
  /** Host header values allowed besides the bound one (and, on loopback, the loopback names). */
  allowedHosts: readonly string[];
  /** Origins allowed besides the server's own loopback ones. */
  allowedOrigins: readonly string[];
  /** The bearer token every request must carry, if any. */
  token: string | undefined;
  /** With a board: the secret its routes require when there is no token. */
  boardSecret: string | undefined;
  /**
   * The table of agents in force (`--agents`), read at each request (a file source reloads it),
   * and the count of refused tokens per address (429 past its limit): with them, every request
   * proves a token of the table and is that entry's agent (`token` and `boardSecret` are not used).
   */
  credentials?: { table: () => AgentTable; limiter: FailureLimiter } | undefined;
}

/**
 * A browser refused the board for want of its secret (a page, not an API call): what the page
 * that tells the person what to do needs to know. Never the secret itself.
 */
export interface SecretPage {
  /** True when the secret is the token the server was started with (--token); false: one made at start. */
  tokenGiven: boolean;
  /** True when the address carried a `?token=` that is not the secret (a mistyped or stale one). */
  wrongToken: boolean;
}

/**
 * The guard's verdict: go on; refuse with a status (a browser asking a board path for a page
 * without the secret also gets `page`, so the server answers a page that says what to do, not
 * JSON); a login that sets the board's cookie; or a request for OAuth discovery or registration,
 * which raider does not do (answered 404).
 */
export type Verdict =
  | { kind: 'pass'; credential?: Credential }
  | { kind: 'refuse'; status: 401 | 403 | 429; message: string; headers?: Record<string, string>; page?: SecretPage }
  | { kind: 'login'; token: string }
  | { kind: 'no-oauth'; message: string };

/** True for a browser's request for a page: a GET whose Accept names text/html (not an API call nor an event stream). */
export function wantsPage(req: Pick<IncomingMessage, 'method' | 'headers'>): boolean {
  return req.method === 'GET' && /(?:^|[\s,])text\/html\s*(?:[;,]|$)/i.test(req.headers.accept ?? '');
}

/** What a client asking for OAuth discovery or registration is told (404). */
export const NO_OAUTH_MESSAGE =
  'raider does no OAuth: send the token the server was started with (--token, RAIDER_TOKEN) as Authorization: Bearer <token>';

/**
 * The OAuth discovery and registration paths (RFC 9728, RFC 8414, OpenID Connect Discovery, RFC
 * 7591's conventional `/register`), each also with a path after it (`/.well-known/oauth-protected-resource/mcp`).
 */
const OAUTH_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/register',
];

/**
 * True for a path an OAuth client probes or registers at: the well-known discovery documents, in
 * their root, path-inserted (`/.well-known/openid-configuration/mcp`) and path-appended
 * (`/mcp/.well-known/openid-configuration`) forms, and `/register`.
 */
export function isOAuthPath(pathname: string): boolean {
  return (
    OAUTH_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`)) ||
    pathname.endsWith('/.well-known/openid-configuration') ||
    pathname.endsWith('/.well-known/oauth-authorization-server')
  );
}

/** True for an address that binds every interface. */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** The Host header values the server answers to. */
function allowedHosts(options: Pick<GuardOptions, 'host' | 'port' | 'allowedHosts'>): Set<string> {
  const names = new Set([options.host, ...options.allowedHosts]);
  if (isLoopback(options.host) || isWildcard(options.host)) {
    for (const name of ['localhost', '127.0.0.1', '[::1]']) names.add(name);
  }
  if (isWildcard(options.host)) {
    // Bound to every interface: clients reach it by any of this machine's names and addresses
    // (the token is the guard there).
    names.add(hostname());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.address);
    }
  }
  const hosts = new Set<string>();
  for (const name of names) {
    const bracketed = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
    hosts.add(bracketed.toLowerCase());
    hosts.add(`${bracketed}:${options.port}`.toLowerCase());
  }
  return hosts;
}

/** The Origins allowed: the server's own (loopback) origins and the configured ones. */
function allowedOrigins(options: GuardOptions, hosts: Set<string>): Set<string> {
  const origins = new Set(options.allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/$/, '')));
  for (const host of hosts) {
    if (host.includes(':') && !host.endsWith(']')) origins.add(`http://${host}`);
  }
  return origins;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares a presented token with the expected one in constant time. */
function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * The token in the board's cookie, or undefined when there is none or it is malformed (a bad
 * percent-encoding is a client's mistake: refused like any wrong token, and not logged).
 */
function cookieToken(req: IncomingMessage): string | undefined {
  const raw = /(?:^|;\s*)raider_token=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * The token a request presents: its bearer token, else a board login's `?token=`, else the board's
 * cookie. Node reads header values as latin1, while a token is compared as UTF-8 (the login's and
 * the cookie's are percent-decoded as UTF-8 already): the bearer token is read back as UTF-8, so a
 * token outside ASCII matches whichever way it came.
 */
function presentedToken(req: IncomingMessage, login: string | null): string {
  const auth = req.headers.authorization ?? '';
  if (auth.startsWith('Bearer ')) return Buffer.from(auth.slice(7), 'latin1').toString('utf8');
  return login ?? cookieToken(req) ?? '';
}

/** The verdict with a table of agents: the token names the agent (credential-guard.ts). */
function withTable(
  req: IncomingMessage,
  url: URL,
  boardRoute: boolean,
  table: AgentTable,
  limiter: FailureLimiter,
): Verdict {
  const login = req.method === 'GET' && url.pathname === '/' ? url.searchParams.get('token') : null;
  const checked = checkCredential(req, presentedToken(req, login), boardRoute, table, limiter);
  if (checked.kind === 'pass') return login !== null ? { kind: 'login', token: login } : checked;
  if (checked.status === 401 && boardRoute && wantsPage(req)) {
    return { ...checked, page: { tokenGiven: true, wrongToken: login !== null } };
  }
  return checked;
}

/**
 * Builds the guard. With a token every request proves it. Without one, /mcp and /healthz on
 * loopback stay open (as MCP clients expect) but the board, which shows every list and answers
 * questions, asks for its secret: any local process could reach it otherwise. The board's page
 * cannot send a header on its event stream: it proves the secret once with `/?token=` (a login,
 * answered with a cookie) and then carries it in an HttpOnly, SameSite=Strict cookie. OAuth
 * discovery and registration paths get `no-oauth` (a 404) whatever the token: raider does no OAuth.
 *
 * @example
 * const guard = requestGuard({ host: '127.0.0.1', port: 3333, allowedHosts: [], allowedOrigins: [], token: undefined, boardSecret });
 * const verdict = guard(req);
 * if (verdict.kind === 'refuse') return answer(res, verdict.status, verdict.message);
 */
export function requestGuard(options: GuardOptions): (req: IncomingMessage) => Verdict {
  const hosts = allowedHosts(options);
  const origins = allowedOrigins(options, hosts);
  return (req) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host)) {
      return {
        kind: 'refuse',
        status: 403,
        message: `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not allowed`,
      };
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      return { kind: 'refuse', status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Before the token: a 401 there makes clients (Claude Code, the AI SDK) take the server for an
    // OAuth one, and their registration fails with a 401 that tells the person nothing. A 404 is
    // the answer OAuth clients read as "no OAuth here". After Host and Origin, so a page from
    // elsewhere learns nothing.
    if (isOAuthPath(url.pathname)) return { kind: 'no-oauth', message: NO_OAUTH_MESSAGE };
    const boardRoute = url.pathname !== '/mcp' && url.pathname !== '/healthz';
    const credentials = options.credentials;
    if (credentials) return withTable(req, url, boardRoute, credentials.table(), credentials.limiter);
    const secret = options.token ?? (boardRoute ? options.boardSecret : undefined);
    if (secret === undefined) return { kind: 'pass' };
    const login =
      options.boardSecret && req.method === 'GET' && url.pathname === '/' ? url.searchParams.get('token') : null;
    const presented = presentedToken(req, login);
    if (!tokenMatches(presented, secret)) {
      // A person's browser on a board path gets a page that says what to do; API clients keep JSON.
      const page = boardRoute && options.boardSecret !== undefined && wantsPage(req);
      return {
        kind: 'refuse',
        status: 401,
        message: 'Unauthorized: expected Authorization: Bearer <token>',
        headers: { 'www-authenticate': 'Bearer' },
        ...(page ? { page: { tokenGiven: options.token !== undefined, wrongToken: login !== null } } : {}),
      };
    }
    return login !== null ? { kind: 'login', token: login } : { kind: 'pass' };
  };
}
