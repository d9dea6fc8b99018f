/**
 * What the shared suite (ask-tools-suite.ts) needs of one way to run the question tools end to
 * end: an entry of this package (its adapter), a server of its SDK, and a real MCP client
 * connected to it in one protocol era. One harness per adapter and era; every harness runs the
 * same tests with the same golden answers, and says where the protocol (or its SDK) differs.
 */
import type { Answerer } from '../core/types.js';

/** The params of an elicitation request as the client's handler receives them. */
export type ElicitParams = { message: string; mode?: string; requestedSchema: unknown; [key: string]: unknown };

/** What the person does with a form, as the client's handler answers it. */
export type ElicitOutcome = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

/** The client's elicitation handler: the person at the keyboard. */
export type ElicitHandler = (params: ElicitParams, signal: AbortSignal) => Promise<ElicitOutcome> | ElicitOutcome;

/** Per-call options of a client. */
export interface CallOptions {
  signal?: AbortSignal;
  onprogress?: (progress: number) => void;
}

/** A tool as tools/list shows it. */
export type ListedTool = {
  name: string;
  inputSchema: { properties?: Record<string, unknown>; [key: string]: unknown };
  outputSchema?: unknown;
  annotations?: unknown;
  [key: string]: unknown;
};

/** A client connected to the server under test. */
export interface Connection {
  /**
   * Calls a tool: resolves with its result (without the server identity a 2026-era result
   * carries in `_meta`, the same on every call) or rejects with the client's error.
   */
  call(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  listTools(): Promise<ListedTool[]>;
  /** The params of every elicitation the client's handler was asked, in order. */
  requests: ElicitParams[];
}

/** Options of an entry's AskTools, as far as the suite uses them. */
export interface SuiteToolsOptions {
  answerer?: Answerer;
  timeoutMs?: number;
  progressIntervalMs?: number;
  structuredOutput?: boolean;
}

/** The AskTools of an entry. */
export interface SuiteTools<Server> {
  readonly unavailable: string;
  readonly server: Server;
  register(server: Server): void;
  registerAskUserQuestion(server: Server, options?: { name?: string }): void;
}

/** An entry of this package, as the suite mounts the tools with it. */
export interface SuiteEntry<Server> {
  AskTools: new (options?: SuiteToolsOptions) => SuiteTools<Server>;
  registerAskUserQuestion(server: Server, options?: { name?: string; structuredOutput?: boolean }): void;
  /**
   * The answerer that asks the connected client's user, for a server of this entry: v1's
   * `elicitationAnswerer(server)`; none on v2, which asks the client without one.
   */
  clientAnswerer(server: Server): Answerer | undefined;
}

/** Where a harness's protocol (or SDK) differs; each difference is listed in the README. */
export interface Differences {
  /** How a call of an unknown tool ends: an error result (v1) or a JSON-RPC error the call rejects with (v2). */
  unknownTool: { rejects: false; text: string } | { rejects: true; message: string };
  /** The `$schema` of the listed input schemas. */
  dialect: string;
  /** The `execution` member of a listed tool (v1 lists `taskSupport: 'forbidden'`, v2 nothing). */
  execution: unknown;
  /**
   * Whether the server sends progress while the client asks the person: yes in the 2025 era
   * (the call stays open meanwhile); in the 2026 era the server holds no call then, and only the
   * client's own driver reports its rounds.
   */
  serverProgressWhileAsking: boolean;
}

/** One way to run the tools end to end. */
export interface Harness<Server> {
  /** For test names: the adapter and the era, `v2 server + v1 client (2025-11-25, shim)`. */
  name: string;
  entry: SuiteEntry<Server>;
  /** A fresh server of the entry's SDK, with the SDK's defaults. */
  newServer(): Server;
  /**
   * Connects a client, eliciting through `handler` when given (else declaring no elicitation),
   * to the server `serve` makes: once for a connection, or once per request in the 2026 era
   * (whose servers are made per request, as `createMcpHandler` does).
   */
  connect(serve: () => Server, handler?: ElicitHandler): Promise<Connection>;
  /** Closes every connection made since the last call. */
  closeAll(): Promise<void>;
  differences: Differences;
}
