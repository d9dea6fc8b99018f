/**
 * A guard in front of the SDK for malformed `tools/call` requests. The SDK checks a request's
 * params against its schema before any handler runs and answers a mismatch as an internal error
 * (-32603) whose message is a pretty-printed dump of zod issues. A client sending `arguments` that
 * are not an object, or no params at all, should instead hear -32602 (invalid params) with one
 * line saying what was expected and what was received.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { received } from '@raider/kit/received';
import type { AnswerWatch } from './answer-watch.js';

/** How long an answer may still be written after its call's signal aborted. */
const ANSWER_GRACE_MS = 2_000;

/** JSON-RPC's code for invalid method parameters. */
const INVALID_PARAMS = -32602;

/** The kind of a value, for a message that must not echo it (it may be huge). */
const kindOf = (value: unknown): string => received(value, { by: 'kind' });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a tools/call request's params, or undefined when their shape is right. */
export function toolCallProblem(params: unknown): string | undefined {
  if (!isObject(params)) {
    return `tools/call: expected params { name, arguments? } (an object), received ${kindOf(params)}`;
  }
  if (typeof params.name !== 'string') {
    return `tools/call: params.name: expected the name of a tool (a string), received ${kindOf(params.name)}`;
  }
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    return `tools/call: params.arguments: expected an object of named arguments, received ${kindOf(params.arguments)}`;
  }
  return undefined;
}

/** Answers a malformed tools/call request -32602 with one readable line; true when it did (the server never sees it). */
function refusedMalformed(transport: Transport, message: JSONRPCMessage): boolean {
  const request = message as { id?: string | number; method?: string; params?: unknown };
  const problem = request.method === 'tools/call' && request.id !== undefined && toolCallProblem(request.params);
  if (!problem) return false;
  const reply: JSONRPCMessage = {
    jsonrpc: '2.0',
    id: request.id as string | number,
    error: { code: INVALID_PARAMS, message: problem },
  };
  transport.send(reply).catch(() => {});
  return true;
}

/** Who waits to hear that the answer to a request id was written (true) or could not be (false). */
type AnswerWaiters = Map<string | number, Set<(written: boolean) => void>>;

/** AnswerWatch.answered: resolves once the answer to `requestId` is written (true), or cannot be (false). */
function answerOf(answerWaiters: AnswerWaiters, requestId: string | number, signal: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(false);
    let waiting = answerWaiters.get(requestId);
    if (!waiting) {
      waiting = new Set();
      answerWaiters.set(requestId, waiting);
    }
    const settle = (written: boolean) => {
      signal.removeEventListener('abort', onAbort);
      resolve(written);
    };
    // The call was cancelled, or the connection ended: an answer the server was already
    // sending may still be written in a moment; after that, none will be.
    const onAbort = () => {
      setTimeout(() => {
        if (!answerWaiters.get(requestId)?.delete(settle)) return;
        if (answerWaiters.get(requestId)?.size === 0) answerWaiters.delete(requestId);
        resolve(false);
      }, ANSWER_GRACE_MS).unref();
    };
    waiting.add(settle);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A transport with the guard in front, the count of the requests it is serving, and (as an
 * AnswerWatch) word of when the answer to a request was written.
 */
export interface TappedTransport<T extends Transport> extends AnswerWatch {
  /** The transport to connect a server (or `serveStdio`) to: `inner` with the tap in front. */
  readonly transport: Transport;
  /** The transport it wraps. */
  readonly inner: T;
  /** Requests received and not yet answered (the calls in flight). */
  inFlight(): number;
  /** Resolves true once no request is in flight, or false after `timeoutMs` with some still open. */
  drained(timeoutMs: number): Promise<boolean>;
  /** Calls `listener` once the inner transport closed, after whoever connected to it heard so. */
  whenClosed(listener: () => void): void;
  /** Calls `listener` with each error the inner transport reports, after whoever connected to it. */
  onFailure(listener: (error: Error) => void): void;
}

/**
 * The tap as a transport of its own, wrapping `inner`: whoever connects to it (the SDK's server,
 * `serveStdio`) sets its callbacks, and it holds `inner`'s. So neither transport is patched: what
 * it receives passes the guard and the count first, what is sent through it is seen on its way.
 */
class TapTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly open = new Set<string | number>();
  private onDrained: (() => void) | undefined;
  private readonly answerWaiters: AnswerWaiters = new Map();
  private readonly closedListeners: (() => void)[] = [];
  private readonly errorListeners: ((error: Error) => void)[] = [];

  constructor(readonly inner: Transport) {
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onclose = () => {
      this.onclose?.();
      for (const listener of this.closedListeners) listener();
    };
    inner.onerror = (error) => {
      this.onerror?.(error);
      for (const listener of this.errorListeners) listener(error);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  /** Hands the SDK's scope-challenge resolver on to a transport that takes one (the HTTP session's). */
  setScopeChallengeResolver(resolver: unknown): void {
    (this.inner as { setScopeChallengeResolver?: (resolver: unknown) => void }).setScopeChallengeResolver?.(resolver);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** A message received: a malformed call answered here, a request counted, then handed on. */
  private receive(message: JSONRPCMessage, extra?: Parameters<NonNullable<Transport['onmessage']>>[1]): void {
    if (refusedMalformed(this, message)) return;
    const request = message as { id?: string | number; method?: string };
    // A 2026-era `subscriptions/listen` is a standing stream, open for the client's life, not a call
    // in flight: a shutdown does not wait for it (the serving entry ends it gracefully).
    if (request.method !== undefined && request.id !== undefined && request.method !== 'subscriptions/listen') {
      this.open.add(request.id);
    }
    this.onmessage?.(message, extra);
  }

  /** Sends through `inner`; an answer (a result or an error for a request id) ends that request once written. */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = message as { id?: string | number; method?: string };
    const isAnswer = answer.method === undefined && answer.id !== undefined;
    let written = false;
    try {
      await this.inner.send(message, options);
      written = true;
    } finally {
      // Written, or never to be (the client went away): either way the request is over.
      if (isAnswer) this.ended(answer.id as string | number, written);
    }
  }

  private ended(id: string | number, written: boolean): void {
    if (this.open.delete(id) && this.open.size === 0) this.onDrained?.();
    const waiting = this.answerWaiters.get(id);
    this.answerWaiters.delete(id);
    for (const resolve of waiting ?? []) resolve(written);
  }

  answered(requestId: string | number, signal: AbortSignal): Promise<boolean> {
    return answerOf(this.answerWaiters, requestId, signal);
  }

  inFlight(): number {
    return this.open.size;
  }

  drained(timeoutMs: number): Promise<boolean> {
    if (this.open.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.onDrained = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  whenClosed(listener: () => void): void {
    this.closedListeners.push(listener);
  }

  onFailure(listener: (error: Error) => void): void {
    this.errorListeners.push(listener);
  }
}

/**
 * Returns `transport` with a guard on its incoming messages: a `tools/call` request whose params
 * are malformed is answered -32602 with one readable line, and the server never sees it. It also
 * counts the requests in flight (received, not yet answered), so a shutdown can answer them before
 * it closes. Connect the server to the returned `transport`, not to `transport` itself.
 *
 * @example
 * const tapped = tapTransport(new StdioServerTransport());
 * await server.connect(tapped.transport);
 * // on SIGTERM: stop reading, then
 * await tapped.drained(4500);
 */
export function tapTransport<T extends Transport>(transport: T): TappedTransport<T> {
  const tap = new TapTransport(transport);
  return {
    transport: tap,
    inner: transport,
    answered: (requestId, signal) => tap.answered(requestId, signal),
    inFlight: () => tap.inFlight(),
    drained: (timeoutMs) => tap.drained(timeoutMs),
    whenClosed: (listener) => tap.whenClosed(listener),
    onFailure: (listener) => tap.onFailure(listener),
  };
}

/** `tapTransport(transport).transport`: the guard alone. */
export function guardToolCalls(transport: Transport): Transport {
  return tapTransport(transport).transport;
}
