/**
 * Streamable HTTP at /mcp: one conversation per MCP session, each isolated, with the transport
 * security the MCP specification asks for (loopback by default, Host and Origin checked on every
 * request, a bearer token off loopback), a body limit, a session cap and idle expiry.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Board, serveBoard } from '../board/routes.js';
import { type Conversation, createConversation } from '../conversation/conversation.js';
import { ListIdError, listFileName, watchLists } from '../lists/list-file.js';
import { listFor, SharedListLimitError } from '../lists/memory-lists.js';
import { type Logger, silent } from '../log.js';
import { isLoopback, type ServerOptions } from '../options.js';
import { SHUTDOWN_GRACE_MS } from '../stdio.js';
import { guardToolCalls } from '../transport-tap.js';
import { type Body, readBody } from './body.js';

/** The header a client names its list with (ignored when the server has --list). */
export const LIST_HEADER = 'x-raider-list';

interface Session {
  transport: StreamableHTTPServerTransport;
  conversation: Conversation;
  lastSeen: number;
  /** POST requests of this session being served now (a tool call waiting on a person, say): not idle. */
  inFlight: number;
}

/** A running HTTP server. */
export interface HttpServer {
  /** The URL of the MCP endpoint (with the port actually bound). */
  readonly url: string;
  /** With --board: the board's URL with its secret as `?token=` (the page then keeps it in a cookie). */
  readonly boardUrl: string | undefined;
  readonly sessions: ReadonlyMap<string, unknown>;
  /**
   * Stops accepting (new requests answer 503), withdraws open questions, lets the requests in
   * flight finish and answer (at most `graceMs`), then closes every session.
   */
  close(graceMs?: number): Promise<void>;
}

function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The token in the board's cookie, or undefined when there is none or it is malformed (a bad
 * percent-encoding is a client's mistake: answered 401 like any wrong token, and not logged).
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

/** True for an address that binds every interface. */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Compares a presented token with the expected one in constant time. */
function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The Host header values this server answers to. */
function allowedHosts(options: ServerOptions, port: number): Set<string> {
  const names = new Set([options.host, ...options.allowedHosts]);
  if (isLoopback(options.host) || isWildcard(options.host)) {
    for (const n of ['localhost', '127.0.0.1', '[::1]']) names.add(n);
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
    hosts.add(`${bracketed}:${port}`.toLowerCase());
  }
  return hosts;
}

/** The Origins allowed: the server's own (loopback) origins and the configured ones. */
function allowedOrigins(options: ServerOptions, port: number): Set<string> {
  const origins = new Set(options.allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  for (const host of allowedHosts(options, port)) {
    if (host.includes(':') && !host.endsWith(']')) origins.add(`http://${host}`);
  }
  return origins;
}

/** Starts the HTTP server; resolves once it listens. */
export async function startHttp(options: ServerOptions, log: Logger = silent): Promise<HttpServer> {
  const sessions = new Map<string, Session>();
  let hosts = new Set<string>();
  let origins = new Set<string>();
  let closing = false;
  /** POST requests to /mcp being served (body read, call run, answer sent): a shutdown waits for them. */
  let posts = 0;
  // The board's secret: the token when there is one, else one made for this run (its URL is logged).
  const boardSecret = options.token ?? randomBytes(24).toString('base64url');
  const board = options.board
    ? new Board(function* () {
        for (const [sid, session] of sessions) yield [sid, session.conversation] as [string, Conversation];
      })
    : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!hosts.has(host))
      return rpcError(res, 403, -32000, `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not allowed`);
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      return rpcError(res, 403, -32000, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`);
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    // With --token every request proves it. Without one, /mcp on loopback stays open (as MCP
    // clients expect) but the board, which shows every list and answers questions, always asks
    // for a secret: any local process could reach it otherwise.
    const secret = options.token ?? (board && path !== '/mcp' && path !== '/healthz' ? boardSecret : undefined);
    if (secret !== undefined) {
      // The board's page cannot send a header on its event stream: it proves the token once with
      // ?token= and then carries it in an HttpOnly, SameSite=Strict cookie.
      const auth = req.headers.authorization ?? '';
      const fromQuery = board && req.method === 'GET' && path === '/' ? url.searchParams.get('token') : null;
      const presented = auth.startsWith('Bearer ') ? auth.slice(7) : (fromQuery ?? cookieToken(req) ?? '');
      if (!tokenMatches(presented, secret)) {
        return rpcError(res, 401, -32000, 'Unauthorized: expected Authorization: Bearer <token>', {
          'www-authenticate': 'Bearer',
        });
      }
      if (fromQuery !== null) {
        res.writeHead(303, {
          location: '/',
          'set-cookie': `raider_token=${encodeURIComponent(fromQuery)}; HttpOnly; SameSite=Strict; Path=/`,
        });
        return res.end();
      }
    }
    if (path === '/healthz' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ status: 'ok', sessions: sessions.size }));
    }
    if (board && path !== '/mcp') return serveBoard(board, req, res, path);
    if (path !== '/mcp') return rpcError(res, 404, -32000, `Not found: ${path}; the MCP endpoint is /mcp`);
    if (closing) return rpcError(res, 503, -32000, 'Service unavailable: the server is shutting down');
    if (req.method === 'POST') {
      // Counted from the first byte, body reading included: a shutdown waits for it to be answered.
      posts += 1;
      res.once('close', () => {
        posts -= 1;
      });
    }

    let body: unknown;
    if (req.method === 'POST') {
      let read: Body;
      try {
        read = await readBody(req, options.maxBodyBytes);
      } catch {
        return rpcError(res, 400, -32600, 'Invalid request: the body could not be read');
      }
      if ('tooLarge' in read) {
        // The rest of the body is drained unread (closing at once could reset the connection
        // before the client reads this answer); the request timeout bounds how long.
        return rpcError(res, 413, -32600, `Request body too large: expected at most ${options.maxBodyBytes} bytes`);
      }
      try {
        body = JSON.parse(read.text);
      } catch {
        return rpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
      }
      if (typeof body !== 'object' || body === null) {
        return rpcError(res, 400, -32600, 'Invalid request: expected a JSON-RPC message or batch');
      }
    }

    const sessionId = req.headers['mcp-session-id'];
    const id = Array.isArray(sessionId) ? sessionId[0] : sessionId;
    let session = id ? sessions.get(id) : undefined;
    if (id && !session) return rpcError(res, 404, -32001, 'Session not found: start a new one with initialize');
    if (!session) {
      const initializing = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
      if (req.method !== 'POST' || !initializing) {
        return rpcError(res, 400, -32000, 'Bad request: expected an mcp-session-id header, or an initialize request');
      }
      if (sessions.size >= options.maxSessions) {
        // Clients that never end their sessions (one-shot CLIs) must not lock others out: the
        // session idle longest with nothing in flight makes room. Only when every one is busy is
        // the newcomer refused.
        const idlest = [...sessions.entries()]
          .filter(([, open]) => open.inFlight === 0)
          .sort(([, a], [, b]) => a.lastSeen - b.lastSeen)[0];
        if (!idlest) {
          log.warn(`refused a session: all ${options.maxSessions} sessions are busy`);
          return rpcError(
            res,
            503,
            -32000,
            `Service unavailable: ${options.maxSessions} sessions are open and busy, the most allowed`,
          );
        }
        endSession(idlest[0], `${options.maxSessions} sessions were open; it was idle longest and made room`);
      }
      // The list: the server's, else the one the client names, else (durable) one of the session's own.
      const named = req.headers[LIST_HEADER];
      let listId = options.list ?? (Array.isArray(named) ? named[0] : named);
      if (listId !== undefined) {
        try {
          listFileName(listId);
        } catch (error) {
          if (error instanceof ListIdError)
            return rpcError(res, 400, -32602, `Bad ${LIST_HEADER} header: ${error.message}`);
          throw error;
        }
      } else if (options.dataDir) listId = `session-${randomUUID()}`;
      try {
        session = openSession(listId);
      } catch (error) {
        if (!(error instanceof SharedListLimitError)) throw error;
        log.warn(`refused a session: ${error.message}`);
        return rpcError(res, 503, -32000, `Service unavailable: ${error.message}`);
      }
    }
    session.lastSeen = Date.now();
    // A GET is the client's standing event stream, open for the session's life: not activity.
    // A POST is counted until the response is finished: a POST answered as an event stream stays open while
    // its tool call waits (on a person, say).
    const active = session;
    if (req.method === 'POST') {
      active.inFlight += 1;
      res.once('close', () => {
        active.inFlight -= 1;
        active.lastSeen = Date.now();
      });
    }
    await active.transport.handleRequest(req, res, body);
  };

  const openSession = (listId: string | undefined): Session => {
    const list = listFor(options.dataDir, listId, { keepMs: options.idleTimeoutMs, maxLists: options.maxSessions });
    const session = { lastSeen: Date.now(), inFlight: 0 } as Session;
    const conversation = createConversation({
      family: options.family,
      names: options.names,
      askTimeoutMs: options.askTimeoutMs,
      limits: options.limits,
      log,
      ...(list ? { list } : {}),
      ...(board
        ? {
            onChange: () => board?.changed(),
            fallbackAnswerer: board.answerer(() => listId ?? `session ${session.transport.sessionId?.slice(0, 8)}`),
          }
        : {}),
    });
    session.conversation = conversation;
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, session);
        board?.changed();
        log.info(`session ${sid} opened (${sessions.size} open)`);
      },
      onsessionclosed: (sid) => {
        endSession(sid, 'the session was closed');
      },
    });
    session.transport.onclose = () => {
      const sid = session.transport.sessionId;
      if (sid) endSession(sid, 'the session was closed');
    };
    void conversation.server.connect(guardToolCalls(session.transport));
    return session;
  };

  const endSession = (sid: string, reason: string) => {
    const session = sessions.get(sid);
    if (!session) return;
    sessions.delete(sid);
    void session.conversation.close(reason).catch(() => {});
    board?.changed();
    log.info(`session ${sid} ended: ${reason}`);
  };

  const http: Server = createServer(
    {
      // A client that sends its headers or body slowly holds a socket: seconds, not Node's minutes.
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, options.headersTimeoutMs),
    },
    (req, res) => {
      handle(req, res).catch((error) => {
        log.error(`request failed: ${(error as Error).message}`);
        rpcError(res, 500, -32603, 'Internal error');
      });
    },
  );
  // Fewer connections than file descriptors: past the cap new ones are refused, and the server
  // keeps the descriptors it needs for its files and the connections it serves.
  http.maxConnections = options.maxConnections;
  http.on('drop', () => log.debug(`refused a connection: ${options.maxConnections} are open, the most allowed`));

  // Changes other processes make to shared lists reach subscribers and the board too.
  const unwatch = options.dataDir
    ? watchLists(options.dataDir, (file) => {
        for (const session of sessions.values()) {
          const id = session.conversation.listId;
          if (id !== undefined && listFileName(id) === file) session.conversation.listChangedElsewhere();
        }
        board?.changed();
      })
    : () => {};

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [sid, session] of sessions) {
        if (session.inFlight === 0 && now - session.lastSeen > options.idleTimeoutMs) {
          endSession(sid, 'the session was idle too long');
        }
      }
    },
    Math.max(50, Math.min(60_000, Math.floor(options.idleTimeoutMs / 4))),
  );
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  hosts = allowedHosts(options, port);
  origins = allowedOrigins(options, port);
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${port}/mcp`;

  return {
    url,
    boardUrl: board
      ? `http://${isWildcard(options.host) ? '127.0.0.1' : shownHost}:${port}/?token=${encodeURIComponent(boardSecret)}`
      : undefined,
    sessions,
    async close(graceMs = SHUTDOWN_GRACE_MS) {
      closing = true;
      unwatch();
      clearInterval(sweep);
      // No new connections, and new requests on open ones answer 503; open questions are
      // withdrawn (their calls answer at once); the calls in flight finish and answer.
      const done = new Promise<void>((resolve) => http.close(() => resolve()));
      for (const session of sessions.values()) session.conversation.endQuestions('the server is shutting down');
      const busy = () => posts;
      const deadline = Date.now() + graceMs;
      while (busy() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (busy() > 0) log.warn(`${busy()} requests were still running after ${graceMs} ms; they get no answer`);
      board?.close();
      await Promise.all(
        [...sessions.keys()].map(async (sid) => {
          const session = sessions.get(sid);
          sessions.delete(sid);
          await session?.conversation.close('the server is shutting down').catch(() => {});
        }),
      );
      http.closeAllConnections();
      await done;
    },
  };
}
