/**
 * Streamable HTTP at /mcp, both protocol eras on one endpoint: a 2025-era client gets one
 * conversation per MCP session, each isolated; a 2026-era request (no session) is served on the
 * list it names, by that list's conversation. With the transport security the MCP specification
 * asks for (loopback by default, Host and Origin checked on every request, a bearer token off
 * loopback), a body limit, a session cap and idle expiry. Its parts: guard.ts (who may ask),
 * body.ts (reading bodies), sessions.ts (the 2025-era sessions), modern.ts (the 2026 era); this
 * module routes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toWebRequest } from '@modelcontextprotocol/node';
import { type AuthInfo, isInitializeRequest, isLegacyRequest } from '@modelcontextprotocol/server';
import { ListIdError, listFolderName } from '@raider/file-store';
import { Board, serveBoard } from '../board/routes.js';
import { answerSecretPage } from '../board/secret-page.js';
import { type Conversation, createConversation, settingsOf } from '../conversation/conversation.js';
import { SharedListLimitError } from '../errors.js';
import { listFor } from '../lists/list-for.js';
import { defaultListId } from '../lists/project-list.js';
import { type Logger, silent } from '../log.js';
import type { ServerOptions } from '../options.js';
import { createRuntime, type ServerRuntime } from '../runtime.js';
import { SHUTDOWN_GRACE_MS } from '../shutdown.js';
import { AGENT_HEADER, agentFromHeader } from './agent-header.js';
import { type Credential, listRefusal } from './credential-guard.js';
import { openCredentials } from './credentials.js';
import { isWildcard, requestGuard, type Verdict } from './guard.js';
import { LIST_HEADER, listFromHeader } from './list-header.js';
import { ModernLists } from './modern.js';
import { answerVerdict, readMessage, rpcError } from './replies.js';
import { type Session, Sessions } from './sessions.js';

export { LIST_HEADER };

/** The AuthInfo the SDK carries to the handlers of an authenticated agent's request: its name, no token. */
const authOf = (credential: Credential): AuthInfo => ({ token: '', clientId: credential.name, scopes: [] });

/** A running HTTP server. */
export interface HttpServer {
  /** The URL of the MCP endpoint (with the port actually bound). */
  readonly url: string;
  /** With --board: the board's URL with its secret as `?token=` (the page then keeps it in a cookie). */
  readonly boardUrl: string | undefined;
  readonly sessions: ReadonlyMap<string, unknown>;
  /**
   * What the server shares between its conversations (its lists in memory, its database pool, its
   * desks of open questions, its inboxes), its own: a conversation made with it
   * (`createConversation({ runtime })`) shares them. Closed by `close()`.
   */
  readonly runtime: ServerRuntime;
  /**
   * Stops accepting (new requests answer 503), withdraws open questions, lets the requests in
   * flight finish and answer (at most `graceMs`), then closes every session and the runtime.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * The /mcp endpoint: reads each message, finds or opens its session (each with its own
 * conversation), and hands the request to the session's transport. It counts the POSTs it is
 * serving, so a shutdown can answer them before it closes.
 */
class McpEndpoint {
  readonly sessions: Sessions;
  readonly modern: ModernLists;
  readonly board: Board | undefined;
  private closing = false;
  /** POST requests being served (body read, call run, answer sent): a shutdown waits for them. */
  private posts = 0;

  constructor(
    private readonly options: ServerOptions,
    private readonly log: Logger,
    private readonly runtime: ServerRuntime,
  ) {
    this.sessions = new Sessions({ ...options, log, onChange: () => this.board?.changed() });
    this.modern = new ModernLists({
      maxLists: options.maxSessions,
      idleTimeoutMs: options.idleTimeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      log,
      // A request may name its agent (X-Raider-Agent): the list's wake-ups are watched from the start.
      converse: (listId) => this.converse(listId, () => listId, { namedAgents: true }),
      onChange: () => this.board?.changed(),
    });
    const map = this.sessions.map;
    const lists = this.modern.map;
    this.board = options.board
      ? new Board(
          function* () {
            for (const [sid, session] of map) yield [sid, session.conversation] as [string, Conversation];
            for (const [id, served] of lists) yield [`list ${id}`, served.conversation] as [string, Conversation];
          },
          runtime.inboxes,
          runtime.answeredBy,
        )
      : undefined;
  }

  /**
   * The list a 2026-era request is on: the server's (--list), else the one it names in
   * X-Raider-List, else the server's default list (the project's, as over stdio); undefined
   * when the request was answered (a 400 for a name that is refused).
   */
  private modernList(req: IncomingMessage, res: ServerResponse): string | undefined {
    const named = this.listNamed(req, res);
    if (!named) return undefined;
    return named.listId ?? defaultListId();
  }

  /**
   * Serves one request to /mcp, of the agent its token names (`credential`) when the server has a
   * table of agents.
   */
  async serve(req: IncomingMessage, res: ServerResponse, credential?: Credential): Promise<void> {
    if (this.closing) return rpcError(res, 503, -32000, 'Service unavailable: the server is shutting down');
    // The SDK hands `req.auth` to every handler as its AuthInfo (`ctx.http.authInfo`): the task
    // tools hold a lease by its clientId, the agent (todo-tools' `ToolCallContext.caller`). Never the token.
    if (credential) (req as IncomingMessage & { auth?: AuthInfo }).auth = authOf(credential);
    let body: unknown;
    if (req.method === 'POST') {
      // Counted from the first byte, body reading included: a shutdown waits for it to be answered.
      this.posts += 1;
      let counted = true;
      const uncount = () => {
        if (counted) this.posts -= 1;
        counted = false;
      };
      res.once('close', uncount);
      body = await readMessage(req, res, this.options.maxBodyBytes);
      if (body === undefined) return;
      // A 2026-era `subscriptions/listen` is a standing stream for the client's life, not a call: a
      // shutdown does not wait for it (closing its list's handler ends it gracefully).
      if ((body as { method?: unknown }).method === 'subscriptions/listen') uncount();
      // A 2026-era request (it carries the per-request envelope): no session, the list it names.
      if (!(await isLegacyRequest(await toWebRequest(req, body), body)))
        return this.serveModern(req, res, body, credential);
    }
    const session = this.sessionFor(req, res, body, credential);
    if (!session) return;
    // A session is its agent's: another agent's token does not carry on in it, even with its id.
    if (credential && session.agent !== credential.name) {
      const message = `Forbidden: this session is ${JSON.stringify(session.agent)}'s, and this token is ${JSON.stringify(credential.name)}'s`;
      return rpcError(res, 403, -32000, message);
    }
    session.lastSeen = Date.now();
    // A GET is the client's standing event stream, open for the session's life: not activity. A
    // POST counts until its answer is finished (an event stream stays open while its call waits).
    if (req.method === 'POST') {
      session.answers.track(body, res);
      session.inFlight += 1;
      res.once('close', () => {
        session.inFlight -= 1;
        session.lastSeen = Date.now();
      });
    }
    await session.transport.handleRequest(req, res, body);
  }

  /** Serves a 2026-era request on its list. */
  private async serveModern(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    credential: Credential | undefined,
  ): Promise<void> {
    const listId = this.modernList(req, res);
    if (listId === undefined) return;
    const refused = credential && listRefusal(credential, listId);
    if (refused) return void rpcError(res, 403, -32000, refused);
    const named = this.agentNamed(req, res, credential);
    if (!named) return;
    try {
      await this.modern.serve(listId, req, res, body, named.agent);
    } catch (error) {
      if (error instanceof ListIdError)
        return void rpcError(res, 400, -32602, `Bad ${LIST_HEADER} header: ${error.message}`);
      if (!(error instanceof SharedListLimitError)) throw error;
      this.log.warn(`refused a 2026-era request: ${error.message}`);
      return void rpcError(res, 503, -32000, `Service unavailable: ${error.message}`);
    }
  }

  /** The session a request belongs to, opened for an initialize; undefined when the request was answered. */
  private sessionFor(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    credential: Credential | undefined,
  ): Session | undefined {
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id) {
      const session = this.sessions.map.get(id);
      if (!session) rpcError(res, 404, -32001, 'Session not found: start a new one with initialize');
      return session;
    }
    const initializing = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
    if (req.method !== 'POST' || !initializing) {
      return void rpcError(
        res,
        400,
        -32000,
        'Bad request: expected an mcp-session-id header, or an initialize request',
      );
    }
    // A bad list name is refused before a session is ended to make room for it.
    const named = this.listNamed(req, res);
    if (!named) return;
    const agent = this.agentNamed(req, res, credential);
    if (!agent) return;
    let listId = named.listId;
    if (credential) {
      const refused = listRefusal(credential, listId);
      if (refused) return void rpcError(res, 403, -32000, refused);
    }
    if (!this.sessions.makeRoom()) {
      const message = `Service unavailable: ${this.options.maxSessions} sessions are open and busy, the most allowed`;
      return void rpcError(res, 503, -32000, message);
    }
    // Durable, without a name: a list of the session's own.
    if (listId === undefined && (this.options.dataDir || this.options.databaseUrl)) listId = `session-${randomUUID()}`;
    try {
      return this.sessions.open(
        (session) =>
          this.converse(listId, () => listId ?? `session ${session.transport.sessionId?.slice(0, 8)}`, {
            id: session.id,
            namedAgents: agent.agent !== undefined,
          }),
        agent.agent,
      );
    } catch (error) {
      if (error instanceof ListIdError)
        return void rpcError(res, 400, -32602, `Bad ${LIST_HEADER} header: ${error.message}`);
      if (!(error instanceof SharedListLimitError)) throw error;
      this.log.warn(`refused a session: ${error.message}`);
      return void rpcError(res, 503, -32000, `Service unavailable: ${error.message}`);
    }
  }

  /**
   * The list a new session is on: the server's (--list), else the one the client names in
   * X-Raider-List (percent-decoded, see list-header.ts), else none yet; undefined when the request
   * was answered (a 400 for a name that is refused).
   */
  private listNamed(req: IncomingMessage, res: ServerResponse): { listId: string | undefined } | undefined {
    if (this.options.list !== undefined) return { listId: this.options.list };
    const named = req.headers[LIST_HEADER];
    const header = Array.isArray(named) ? named[0] : named;
    if (header === undefined) return { listId: undefined };
    const read = listFromHeader(header);
    if ('refused' in read) return void rpcError(res, 400, -32602, `Bad ${LIST_HEADER} header: ${read.refused}`);
    try {
      listFolderName(read.listId);
    } catch (error) {
      if (!(error instanceof ListIdError)) throw error;
      return void rpcError(res, 400, -32602, `Bad ${LIST_HEADER} header: ${error.message}`);
    }
    return read;
  }

  /**
   * The agent a request is: the one its token names (`credential`, with a table of agents: the
   * guard has refused a header naming another); else the one it names in X-Raider-Agent
   * (percent-decoded, checked as an agent name), none when the server has --agent (which wins) or
   * the header is absent; undefined when the request was answered (a 400 for a name that is refused).
   */
  private agentNamed(
    req: IncomingMessage,
    res: ServerResponse,
    credential: Credential | undefined,
  ): { agent: string | undefined } | undefined {
    if (credential) return { agent: credential.name };
    if (this.options.agent !== undefined) return { agent: undefined };
    const named = req.headers[AGENT_HEADER];
    const header = Array.isArray(named) ? named[0] : named;
    if (header === undefined) return { agent: undefined };
    const read = agentFromHeader(header);
    if ('refused' in read) return void rpcError(res, 400, -32602, `Bad ${AGENT_HEADER} header: ${read.refused}`);
    return read;
  }

  /** The conversation of a new session or of a list served to the 2026 era, on list `listId` when there is one. */
  private converse(
    listId: string | undefined,
    name: () => string,
    identity: { id?: string; namedAgents?: boolean } = {},
  ): Conversation {
    const { options, board, runtime } = this;
    const list = listFor(runtime, options, listId, {
      keepMs: options.idleTimeoutMs,
      maxLists: options.maxSessions,
      log: this.log,
    });
    try {
      return createConversation({
        ...settingsOf(options),
        transport: 'http',
        ...identity,
        runtime,
        log: this.log,
        ...(list ? { list } : {}),
        ...(board ? { onChange: () => board.changed(), fallbackAnswerer: board.answerer(name) } : {}),
      });
    } catch (error) {
      // No conversation holds the list then: released here, or it would stay in use for good.
      list?.release();
      throw error;
    }
  }

  /**
   * Takes no new requests (503), withdraws open questions (their calls answer at once), lets the
   * POSTs in flight finish and answer (at most `graceMs`), then closes the board and the sessions.
   */
  async close(graceMs: number): Promise<void> {
    this.closing = true;
    for (const session of this.sessions.map.values()) session.conversation.endQuestions('the server is shutting down');
    this.modern.endQuestions('the server is shutting down');
    const deadline = Date.now() + graceMs;
    while (this.posts > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    if (this.posts > 0)
      this.log.warn(`${this.posts} requests were still running after ${graceMs} ms; they get no answer`);
    this.board?.close();
    await this.modern.closeAll('the server is shutting down');
    await this.sessions.closeAll('the server is shutting down');
  }
}

/** Starts the HTTP server; resolves once it listens. */
export async function startHttp(options: ServerOptions, log: Logger = silent): Promise<HttpServer> {
  // The table of agents first: a table that cannot be read stops the start, before the port is taken.
  const credentials = options.agents === undefined ? undefined : await openCredentials(options, log);
  const runtime = createRuntime();
  const endpoint = new McpEndpoint(options, log, runtime);
  const { board, sessions } = endpoint;
  // The board's secret: the token when there is one, else one made for this run (its URL is
  // logged); with a table of agents, a board token of the table (none is made).
  const boardSecret = credentials ? undefined : (options.token ?? randomBytes(24).toString('base64url'));
  let guard: (req: IncomingMessage) => Verdict = () => ({ kind: 'refuse', status: 403, message: 'Forbidden' });
  const http = listenWith(options, log, async (req, res) => {
    const verdict = guard(req);
    // A person's browser without the board's secret: a page that says what to do, not JSON.
    if (verdict.kind === 'refuse' && verdict.page) return answerSecretPage(res, verdict.page);
    if (answerVerdict(res, verdict)) return;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/healthz' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ status: 'ok', sessions: sessions.map.size }));
    }
    const credential = verdict.kind === 'pass' ? verdict.credential : undefined;
    if (path === '/mcp') return endpoint.serve(req, res, credential);
    if (board) return serveBoard(board, req, res, path, credential?.name);
    return rpcError(res, 404, -32000, `Not found: ${path}; the MCP endpoint is /mcp`);
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  }).catch(async (error: unknown) => {
    // The port is taken (say): what was opened for this server goes with it.
    await credentials?.close().catch(() => {});
    await runtime.close().catch(() => {});
    throw error;
  });
  const port = (http.address() as AddressInfo).port;
  guard = requestGuard({ ...options, port, boardSecret: board ? boardSecret : undefined, credentials });
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const reachable = isWildcard(options.host) ? '127.0.0.1' : shownHost;

  return {
    url: `http://${shownHost}:${port}/mcp`,
    boardUrl: board
      ? `http://${reachable}:${port}/${boardSecret === undefined ? '' : `?token=${encodeURIComponent(boardSecret)}`}`
      : undefined,
    sessions: sessions.map,
    runtime,
    async close(graceMs = SHUTDOWN_GRACE_MS) {
      // No new connections; new requests on open ones answer 503 until the end.
      const done = new Promise<void>((resolve) => http.close(() => resolve()));
      await endpoint.close(graceMs);
      await runtime.close().catch(() => {});
      await credentials?.close().catch(() => {});
      http.closeAllConnections();
      await done;
    },
  };
}

/** The Node HTTP server, with timeouts in seconds and a connection cap below the file descriptors. */
function listenWith(
  options: ServerOptions,
  log: Logger,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>,
): Server {
  const http = createServer(
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
  // Past the cap new connections are refused, and the server keeps the descriptors it needs.
  http.maxConnections = options.maxConnections;
  http.on('drop', () => log.debug(`refused a connection: ${options.maxConnections} are open, the most allowed`));
  return http;
}
