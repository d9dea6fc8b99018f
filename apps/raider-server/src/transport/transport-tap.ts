/**
 * A guard in front of the SDK for malformed `tools/call` requests. The SDK checks a request's
 * params against its schema before any handler runs and answers a mismatch as an internal error
 * (-32603) whose message is a pretty-printed dump of zod issues. A client sending `arguments` that
 * are not an object, or no params at all, should instead hear -32602 (invalid params) with one
 * line saying what was expected and what was received.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
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

/**
 * Puts `guarded` in front of the handler the server sets as `transport.onmessage` when it connects
 * (`setInner` keeps that handler, and says whether there is one). A transport whose onmessage is an
 * accessor (the Node HTTP transport hands it on to the transport it wraps) still gets its own
 * setter called, with the guard.
 */
function guardOnmessage(
  transport: Transport,
  guarded: NonNullable<Transport['onmessage']>,
  setInner: (handler: Transport['onmessage']) => boolean,
): void {
  let owner: object | null = transport;
  let original: PropertyDescriptor | undefined;
  while (owner && !original) {
    original = Object.getOwnPropertyDescriptor(owner, 'onmessage');
    owner = Object.getPrototypeOf(owner);
  }
  const setter = original?.set;
  let set = false;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (set ? guarded : undefined),
    set: (handler: Transport['onmessage']) => {
      set = setInner(handler);
      setter?.call(transport, handler ? guarded : undefined);
    },
  });
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
  readonly transport: T;
  /** Requests received and not yet answered (the calls in flight). */
  inFlight(): number;
  /** Resolves true once no request is in flight, or false after `timeoutMs` with some still open. */
  drained(timeoutMs: number): Promise<boolean>;
}

/**
 * Returns `transport` with a guard on its incoming messages: a `tools/call` request whose params
 * are malformed is answered -32602 with one readable line, and the server never sees it. It also
 * counts the requests in flight (received, not yet answered), so a shutdown can answer them before
 * it closes. Apply it before `server.connect(transport)`.
 *
 * @example
 * const tapped = tapTransport(new StdioServerTransport());
 * await conversation.server.connect(tapped.transport);
 * // on SIGTERM: stop reading, then
 * await tapped.drained(4500);
 */
export function tapTransport<T extends Transport>(transport: T): TappedTransport<T> {
  let inner: Transport['onmessage'];
  const open = new Set<string | number>();
  let onDrained: (() => void) | undefined;
  const answerWaiters: AnswerWaiters = new Map();
  const tellAnswered = (id: string | number, written: boolean) => {
    const waiting = answerWaiters.get(id);
    answerWaiters.delete(id);
    for (const resolve of waiting ?? []) resolve(written);
  };
  const guarded: NonNullable<Transport['onmessage']> = (message, extra) => {
    if (refusedMalformed(transport, message)) return;
    const request = message as { id?: string | number; method?: string };
    // A 2026-era `subscriptions/listen` is a standing stream, open for the client's life, not a call
    // in flight: a shutdown does not wait for it (the serving entry ends it gracefully).
    if (request.method !== undefined && request.id !== undefined && request.method !== 'subscriptions/listen') {
      open.add(request.id);
    }
    inner?.(message, extra);
  };
  guardOnmessage(transport, guarded, (handler) => {
    inner = handler;
    return inner !== undefined;
  });
  // An answer (a result or an error for a request id) ends that request once it is written.
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    const answer = message as { id?: string | number; method?: string };
    const isAnswer = answer.method === undefined && answer.id !== undefined;
    let written = false;
    try {
      await send(message, options);
      written = true;
    } finally {
      // Written, or never to be (the client went away): either way the request is over.
      if (isAnswer) {
        const id = answer.id as string | number;
        if (open.delete(id) && open.size === 0) onDrained?.();
        tellAnswered(id, written);
      }
    }
  };
  return {
    transport,
    answered: (requestId, signal) => answerOf(answerWaiters, requestId, signal),
    inFlight: () => open.size,
    drained(timeoutMs) {
      if (open.size === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        onDrained = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
    },
  };
}

/** `tapTransport(transport).transport`: the guard alone. */
export function guardToolCalls<T extends Transport>(transport: T): T {
  return tapTransport(transport).transport;
}
