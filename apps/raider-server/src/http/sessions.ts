/**
 * The 2025-era MCP sessions of the HTTP server (SDK v2's sessionful Node transport): one conversation each, with the requests it has in flight,
 * the idle sweep that ends forgotten sessions, and the cap (at which the longest-idle session
 * with nothing in flight makes room).
 */
import { randomUUID } from 'node:crypto';
import {
  NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport,
  type StreamableHTTPServerTransportOptions,
} from '@modelcontextprotocol/node';
import type { Conversation } from '../conversation/conversation.js';
import type { Logger } from '../log.js';
import { SessionAnswers } from '../transport/answer-watch.js';
import { tapTransport } from '../transport/transport-tap.js';

/** One MCP session over HTTP. */
export interface Session {
  /** Its Mcp-Session-Id (made before the initialize is answered: the conversation's id too). */
  id: string;
  transport: StreamableHTTPServerTransport;
  /** Which POST carries the answer of each request (messages taken are removed once it finished). */
  answers: SessionAnswers;
  conversation: Conversation;
  /** The agent its initialize named (its token's, with a table of agents): the session is its, for its life. */
  agent: string | undefined;
  lastSeen: number;
  /** POST requests of this session being served now (a tool call waiting on a person, say): not idle. */
  inFlight: number;
}

/** A session with nothing in flight and no question of its conversation still open. */
const idle = (session: Session) => session.inFlight === 0 && !session.conversation.hasOpenQuestions();

/**
 * The SDK's transport, which tells when the request that opened its session was answered without
 * opening it. The transport refuses some initialize requests itself (406 to a client that does not
 * accept event streams, 415, 400 for a batch with more than the initialize): such a session never
 * gets an id, so it never joins the map, and nothing (no idle sweep, no DELETE, no cap) could end
 * it. Its conversation would then hold its list for the life of the process: a list shared in
 * memory stayed "in use", was never dropped (its tasks, and through its listeners this McpServer
 * and transport, kept), and counted against the cap of shared lists until every new one was
 * refused.
 */
class SessionTransport extends StreamableHTTPServerTransport {
  constructor(
    options: StreamableHTTPServerTransportOptions,
    private readonly onRefused: (status: number) => void,
  ) {
    super(options);
  }

  override async handleRequest(...[req, res, body]: Parameters<StreamableHTTPServerTransport['handleRequest']>) {
    try {
      await super.handleRequest(req, res, body);
    } finally {
      // The id is set before the initialize is handed on: none once it is answered, none ever.
      if (this.sessionId === undefined) this.onRefused(res.statusCode);
    }
  }
}

/** What the sessions are kept with. */
export interface SessionsOptions {
  maxSessions: number;
  /** A session with nothing in flight for this long ends, in ms. */
  idleTimeoutMs: number;
  log: Logger;
  /** Called when a session opens or ends (a board redraws). */
  onChange: () => void;
}

/** The open sessions of one HTTP server. */
export class Sessions {
  readonly map = new Map<string, Session>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly options: SessionsOptions) {
    this.sweep = setInterval(
      () => {
        const now = Date.now();
        for (const [sid, session] of this.map) {
          // An open question keeps its session: the model resumes it there (until the question expires).
          if (idle(session) && now - session.lastSeen > options.idleTimeoutMs) {
            this.end(sid, 'the session was idle too long');
          }
        }
      },
      Math.max(50, Math.min(60_000, Math.floor(options.idleTimeoutMs / 4))),
    );
    this.sweep.unref();
  }

  /**
   * Makes room for one more session. At the cap, the session idle longest with nothing in flight
   * ends (clients that never end their sessions, one-shot CLIs, must not lock others out).
   * False when every session is busy: the newcomer is to be refused.
   */
  makeRoom(): boolean {
    if (this.map.size < this.options.maxSessions) return true;
    const idlest = [...this.map.entries()]
      .filter(([, open]) => idle(open))
      .sort(([, a], [, b]) => a.lastSeen - b.lastSeen)[0];
    if (!idlest) {
      this.options.log.warn(`refused a session: all ${this.options.maxSessions} sessions are busy`);
      return false;
    }
    this.end(idlest[0], `${this.options.maxSessions} sessions were open; it was idle longest and made room`);
    return true;
  }

  /**
   * Opens a session for `conversation` (made by `converse`, which is given the session so a board
   * can name it). It joins the map once the client's initialize is answered; when the transport
   * refuses that initialize instead, the conversation is ended at once (its list released).
   * `agent`: the agent its initialize named, if any.
   */
  open(converse: (session: Session) => Conversation, agent?: string): Session {
    const session = {
      id: randomUUID(),
      agent,
      lastSeen: Date.now(),
      inFlight: 0,
      answers: new SessionAnswers(),
    } as Session;
    session.conversation = converse(session);
    let refused = false;
    session.transport = new SessionTransport(
      {
        sessionIdGenerator: () => session.id,
        onsessioninitialized: (sid) => {
          this.map.set(sid, session);
          this.options.onChange();
          this.options.log.info(`session ${sid} opened (${this.map.size} open)`);
        },
        onsessionclosed: (sid) => this.end(sid, 'the session was closed'),
      },
      (status) => {
        if (refused) return;
        refused = true;
        this.options.log.debug(`an initialize answered ${status} opened no session; its conversation is ended`);
        void session.conversation.close('the session was never opened').catch(() => {});
      },
    );
    // The server connects to the transport through the tap (malformed calls answered there).
    const tapped = tapTransport(session.transport);
    tapped.whenClosed(() => {
      const sid = session.transport.sessionId;
      if (sid) this.end(sid, 'the session was closed');
    });
    // The agent the initialize named (X-Raider-Agent), for the session's life.
    void session.conversation
      .newServer('legacy', undefined, { agent, answers: session.answers })
      .connect(tapped.transport);
    return session;
  }

  /** Ends session `sid` (its questions withdrawn, its list released) and says why in the log. */
  end(sid: string, reason: string): void {
    const session = this.map.get(sid);
    if (!session) return;
    this.map.delete(sid);
    void session.conversation.close(reason).catch(() => {});
    this.options.onChange();
    this.options.log.info(`session ${sid} ended: ${reason}`);
  }

  /** Stops the sweep and closes every session (a shutdown). */
  async closeAll(reason: string): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all(
      [...this.map.keys()].map(async (sid) => {
        const session = this.map.get(sid);
        this.map.delete(sid);
        await session?.conversation.close(reason).catch(() => {});
      }),
    );
  }
}
