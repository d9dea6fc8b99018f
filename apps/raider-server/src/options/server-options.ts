/** What the command line sets: the server's settings, as readOptions answers them. */
import type { TaskListLimits } from '@raider/todo-tools/v2';
import type { Family, LogLevel, Names } from '../types.js';

/** The server's settings. */
export interface ServerOptions {
  family: Family;
  names: Names;
  http: boolean;
  host: string;
  port: number;
  /** Bearer token HTTP clients must send; required on a non-loopback host. */
  token: string | undefined;
  /**
   * The table of agents and their tokens (`--agents`): a JSON or TOML file, the same JSON inline,
   * or `database` (the `raider_agents` table of --database-url). With one, over HTTP the bearer
   * token decides who a client is (credentials/); without, the name a client gives is believed.
   */
  agents?: string | undefined;
  /**
   * The key that signs what a 2026-era question carries across the client (`requestState`);
   * replicas behind one balancer share it. Default: a key made per process.
   */
  stateSecret?: string | undefined;
  /** Origins allowed besides the server's own loopback origins. */
  allowedOrigins: string[];
  /** Host header values allowed besides the bound host and the loopback names. */
  allowedHosts: string[];
  maxSessions: number;
  /** Idle time after which an HTTP session ends, in ms. */
  idleTimeoutMs: number;
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
  /** How long a client may take to send a request's headers, in ms (default 10 s). */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request, body included, in ms (default 30 s). */
  requestTimeoutMs: number;
  /** Most connections open at once (default: three quarters of the file descriptors, at most 4096). */
  maxConnections: number;
  /** How long a question may wait for its answer, in ms. */
  askTimeoutMs: number;
  /**
   * How long a waiting call (ask_user, wait_for_messages, board_state) waits before it answers
   * anyway, in ms (`--wait-deadline`); undefined: chosen per client (conversation/wait-deadline.ts).
   */
  waitDeadlineMs?: number | undefined;
  /** How often a waiting call sends progress, in ms (`--progress-interval`, default 15 s). */
  progressEveryMs?: number;
  /** How long a question nobody answered stays open, in ms (`--question-expiry`, default 1 h). */
  questionExpiryMs?: number;
  logLevel: LogLevel;
  /** Serve the live board at / (HTTP only). */
  board: boolean;
  /** Where durable lists live; without it nothing is written. */
  dataDir: string | undefined;
  /** The list every conversation of the process uses. */
  list: string | undefined;
  /** The list lives in Claude Code's task folder (`dataDir` and `list` are taken from Claude Code's). */
  claudeTasks: boolean;
  /** Where lists live when they live in PostgreSQL. */
  databaseUrl: string | undefined;
  /** Most connections this server opens to the database, LISTEN aside (default 10). */
  databasePoolSize?: number;
  /**
   * How long a call waits for a list another server is changing, in ms (default 15 s; 0:
   * PostgreSQL's `lock_timeout`); beyond it the call fails, and nothing was changed.
   */
  databaseLockTimeoutMs?: number;
  /**
   * How long a call's transaction may sit idle before PostgreSQL ends it, in ms (default 10 s; 0:
   * PostgreSQL's `idle_in_transaction_session_timeout`): a server frozen in the middle of a call
   * then frees its list for the others.
   */
  databaseIdleTimeoutMs?: number;
  /**
   * At start, wait for a database that cannot be reached instead of reporting it and exiting with
   * 1 (`--wait-for-database`; default false).
   */
  waitForDatabase?: boolean;
  /** Mount task_claim beside the task tools. */
  claims: boolean;
  /** Mount the messaging tools (send_message, wait_for_messages) and send wake-ups, for a team on one list. */
  team?: boolean;
  /**
   * Who this server's agent is (the `owner` it uses on tasks): over HTTP it beats the
   * X-Raider-Agent header. Giving one mounts the messaging tools too.
   */
  agent?: string | undefined;
  /**
   * send_message may write to an agent that never connected to the list (`--send-to-unseen`);
   * default false: a send to a name the list has not seen is refused with the names it has.
   */
  sendToUnseen?: boolean;
  /** Offer the board as an MCP App to clients that render them (default true). */
  boardApp: boolean;
  /**
   * Tool results carry `structuredContent` beside the text, and the tools declare output schemas
   * (default false: Claude Code shows its model the structured content instead of the text, so
   * without it the model reads Claude Code's and rpiv-todo's own answers).
   */
  structuredOutput: boolean;
  /** The tools carry `_meta["anthropic/alwaysLoad"]`: Claude Code loads them up front, not behind ToolSearch. */
  alwaysLoad: boolean;
  /** The list limits given (by flag or variable); the rest take the defaults of DEFAULT_LIMITS. */
  limits: Partial<TaskListLimits>;
  help: boolean;
  version: boolean;
}
