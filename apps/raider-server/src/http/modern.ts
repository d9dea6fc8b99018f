/**
 * The 2026-07-28 era at /mcp: no initialize, no session. Each request names its list (the
 * server's --list, else X-Raider-List, else the server's default list) and is served by that
 * list's SDK handler (`createMcpHandler`, strict: 2025-era requests go to the sessions instead),
 * which builds a server per request from the list's conversation: the tools, their list state and
 * the registry are made once per list and outlive the requests. A change of the list (made here,
 * or by another process, through the list's watch) goes out on that handler's
 * `subscriptions/listen` streams.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ToNodeHandlerOptions, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Conversation } from '../conversation/conversation.js';
import { envelopeCapabilities } from '../conversation/envelope.js';
import type { Caller } from '../conversation/feature.js';
import type { Logger } from '../log.js';
import { responseAnswer } from '../transport/answer-watch.js';

/** What the server made for one 2026-era request is made with: what its envelope and headers said. */
interface ModernRequest {
  /** The client capabilities its `_meta` envelope declares (the board app is offered on them). */
  readonly clientCapabilities: unknown;
  /** The agent it names (X-Raider-Agent), and word of its answer: its response finished. */
  readonly caller: Caller;
}

/** One list's 2026-era serving: its conversation and the SDK handler that makes a server per request. */
export interface ModernList {
  readonly listId: string;
  readonly conversation: Conversation;
  readonly handler: McpHttpHandler;
  /**
   * The requests being served, by the web Request the SDK handler was given: the SDK hands that
   * same Request to the factory (`McpRequestContext.requestInfo`), which finds its request here.
   */
  readonly requests: WeakMap<Request, ModernRequest>;
  /** Requests being served now (an open `subscriptions/listen` stream counts until it ends). */
  inFlight: number;
  lastSeen: number;
}

/** A list with no request in flight and no question of its conversation still open. */
const idle = (served: ModernList) => served.inFlight === 0 && !served.conversation.hasOpenQuestions();

/** What the 2026-era lists are kept with. */
export interface ModernListsOptions {
  /** Most lists served at once; past it the one idle longest with nothing in flight goes. */
  maxLists: number;
  /** A list with nothing in flight for this long stops being served (its conversation ends), in ms. */
  idleTimeoutMs: number;
  /** The largest body the handler reads, in bytes (the endpoint reads the body first: for the same bound). */
  maxBodyBytes: number;
  log: Logger;
  /** Makes the conversation of list `listId` (which may throw: a bad name, the cap of shared lists). */
  converse(listId: string): Conversation;
  /** Called when a list starts or stops being served (a board redraws). */
  onChange(): void;
}

/** The lists the 2026 era is served on now. */
export class ModernLists {
  readonly map = new Map<string, ModernList>();
  private readonly sweep: NodeJS.Timeout;
  private readonly nodeOptions: ToNodeHandlerOptions;

  constructor(private readonly options: ModernListsOptions) {
    this.nodeOptions = {
      maxRequestBodySize: options.maxBodyBytes,
      onerror: (error) => options.log.warn(`2026-era request failed: ${error.message}`),
    };
    this.sweep = setInterval(
      () => {
        const now = Date.now();
        for (const [id, served] of this.map) {
          // An open question keeps its list served: the model resumes it there (until it expires).
          if (idle(served) && now - served.lastSeen > options.idleTimeoutMs) void this.end(id, 'idle');
        }
      },
      Math.max(50, Math.min(60_000, Math.floor(options.idleTimeoutMs / 4))),
    );
    this.sweep.unref();
  }

  /**
   * Serves one 2026-era request on list `listId`, with its body already read (`body`), for the
   * agent it names (`agent`, X-Raider-Agent).
   * @throws what `converse` throws, for a list not served yet.
   */
  async serve(listId: string, req: IncomingMessage, res: ServerResponse, body: unknown, agent?: string): Promise<void> {
    const served = this.open(listId);
    served.lastSeen = Date.now();
    served.inFlight += 1;
    res.once('close', () => {
      served.inFlight -= 1;
      served.lastSeen = Date.now();
    });
    const request: ModernRequest = {
      clientCapabilities: envelopeCapabilities(body),
      caller: { agent, answers: responseAnswer(res) },
    };
    // The SDK's Node adapter makes the web Request; the handler's face here notes it before the
    // handler (and so the factory) sees it.
    const handle = toNodeHandler(
      {
        fetch: (web, handlerOptions) => {
          served.requests.set(web, request);
          return served.handler.fetch(web, handlerOptions);
        },
      },
      this.nodeOptions,
    );
    await handle(req, res, body);
  }

  /** The list's serving, started for its first request. */
  private open(listId: string): ModernList {
    const known = this.map.get(listId);
    if (known) return known;
    this.makeRoom();
    const conversation = this.options.converse(listId);
    const requests = new WeakMap<Request, ModernRequest>();
    const handler = createMcpHandler(
      ({ requestInfo }) => {
        const request = requestInfo && requests.get(requestInfo);
        return conversation.newServer('modern', { clientCapabilities: request?.clientCapabilities }, request?.caller);
      },
      {
        legacy: 'reject',
        maxRequestBodySize: this.options.maxBodyBytes,
        onerror: (error) => this.options.log.debug(`2026-era request: ${error.message}`),
      },
    );
    // Every change of the list, here or elsewhere, to the listen streams that asked for it.
    conversation.onChanged((uri) => handler.notify.resourceUpdated(uri));
    const served: ModernList = { listId, conversation, handler, requests, inFlight: 0, lastSeen: Date.now() };
    this.map.set(listId, served);
    this.options.log.info(`list ${listId} served to 2026-era clients (${this.map.size} lists)`);
    this.options.onChange();
    return served;
  }

  /** At the cap, stops serving the list idle longest with nothing in flight (when there is one). */
  private makeRoom(): void {
    if (this.map.size < this.options.maxLists) return;
    const idlest = [...this.map.values()].filter((served) => idle(served)).sort((a, b) => a.lastSeen - b.lastSeen)[0];
    if (idlest) void this.end(idlest.listId, 'made room');
  }

  /** Stops serving list `listId`: its handler closes (open streams end gracefully), its conversation ends. */
  async end(listId: string, reason: string): Promise<void> {
    const served = this.map.get(listId);
    if (!served) return;
    this.map.delete(listId);
    this.options.onChange();
    this.options.log.debug(`list ${listId} no longer served to 2026-era clients: ${reason}`);
    await served.handler.close().catch(() => {});
    await served.conversation.close(reason).catch(() => {});
  }

  /** Withdraws every open question of every list. */
  endQuestions(reason: string): void {
    for (const served of this.map.values()) served.conversation.endQuestions(reason);
  }

  /** Stops the sweep and every list (a shutdown). */
  async closeAll(reason: string): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all([...this.map.keys()].map((id) => this.end(id, reason)));
  }
}
