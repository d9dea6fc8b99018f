/**
 * The command line of raider-server: every flag has an environment variable twin; a flag beats
 * its variable. A bad flag or value is an OptionsError (the CLI prints it and exits 2).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { claudeTaskFolder, listFolderName } from '@raider/file-store';
import { DEFAULT_LIMITS, type TaskListLimits } from '@raider/todo-tools/v2';
import { agentNameProblem } from './conversation/agent-name.js';
import { MIN_STATE_SECRET_LENGTH } from './conversation/question-state.js';
import { OptionsError } from './errors.js';
import type { Family, LogLevel, Names } from './types.js';

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
  /** Mount task_claim beside the task tools. */
  claims: boolean;
  /** Mount the messaging tools (send_message, wait_for_messages) and send wake-ups, for a team on one list. */
  team?: boolean;
  /**
   * Who this server's agent is (the `owner` it uses on tasks): over HTTP it beats the
   * X-Raider-Agent header. Giving one mounts the messaging tools too.
   */
  agent?: string | undefined;
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

interface Spec {
  flag: string;
  env: string;
  type: 'string' | 'boolean';
  help: string;
  value?: string;
}

/** The list limits as flags: `--max-tasks N` / RAIDER_MAX_TASKS sets `maxTasks`, and so on. */
const LIMIT_FLAGS: Readonly<Record<keyof TaskListLimits, { flag: string; what: string }>> = {
  maxTasks: { flag: 'max-tasks', what: 'most tasks a list holds' },
  maxSubjectLength: { flag: 'max-subject-length', what: 'longest subject (and todo_write content), characters' },
  maxDescriptionLength: { flag: 'max-description-length', what: 'longest description, characters' },
  maxActiveFormLength: { flag: 'max-active-form-length', what: 'longest activeForm, characters' },
  maxOwnerLength: { flag: 'max-owner-length', what: 'longest owner, characters' },
  maxMetadataSize: { flag: 'max-metadata-size', what: 'largest metadata record, characters of JSON' },
  maxMetadataDepth: { flag: 'max-metadata-depth', what: 'deepest nesting of metadata, levels' },
  maxDependencies: { flag: 'max-dependencies', what: 'most ids in one addBlocks/addBlockedBy/blockedBy' },
  maxTodoItems: { flag: 'max-todo-items', what: 'most items in one todo_write list' },
};

/** The environment twin of a flag: `max-tasks` -> RAIDER_MAX_TASKS. */
const envOf = (flag: string) => `RAIDER_${flag.toUpperCase().replaceAll('-', '_')}`;

function limitFlags(): Spec[] {
  return Object.entries(LIMIT_FLAGS).map(([key, { flag, what }]) => ({
    flag,
    env: envOf(flag),
    type: 'string' as const,
    value: 'N',
    help: `${what} (default ${DEFAULT_LIMITS[key as keyof TaskListLimits]})`,
  }));
}

/** Every flag, its variable and its help line. */
export const FLAGS: readonly Spec[] = [
  {
    flag: 'family',
    env: 'RAIDER_FAMILY',
    type: 'string',
    value: 'tasks|todo_write|todo',
    help: 'task-list family (default tasks; todo_write when RAIDER_ENABLE_TASKS=0)',
  },
  {
    flag: 'names',
    env: 'RAIDER_NAMES',
    type: 'string',
    value: 'raider|claude',
    help: "tool names: raider's (default) or Claude Code's",
  },
  { flag: 'http', env: 'RAIDER_HTTP', type: 'boolean', help: 'serve Streamable HTTP at /mcp instead of stdio' },
  { flag: 'host', env: 'RAIDER_HOST', type: 'string', value: 'ADDRESS', help: 'HTTP bind address (default 127.0.0.1)' },
  {
    flag: 'port',
    env: 'RAIDER_PORT',
    type: 'string',
    value: 'PORT',
    help: 'HTTP port (default 3333; 0 picks a free one)',
  },
  {
    flag: 'token',
    env: 'RAIDER_TOKEN',
    type: 'string',
    value: 'TOKEN',
    help: 'bearer token HTTP clients must send (required off loopback)',
  },
  {
    flag: 'state-secret',
    env: 'RAIDER_STATE_SECRET',
    type: 'string',
    value: 'SECRET',
    help: "key signing a question's state across 2026-era clients; the same on every replica (default: one per process)",
  },
  {
    flag: 'allowed-origins',
    env: 'RAIDER_ALLOWED_ORIGINS',
    type: 'string',
    value: 'LIST',
    help: 'comma-separated extra Origins allowed',
  },
  {
    flag: 'allowed-hosts',
    env: 'RAIDER_ALLOWED_HOSTS',
    type: 'string',
    value: 'LIST',
    help: 'comma-separated extra Host header values allowed',
  },
  {
    flag: 'max-sessions',
    env: 'RAIDER_MAX_SESSIONS',
    type: 'string',
    value: 'N',
    help: 'concurrent HTTP sessions (default 100; 503 beyond)',
  },
  {
    flag: 'idle-timeout',
    env: 'RAIDER_IDLE_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: 'an idle HTTP session ends after this (default 1800)',
  },
  {
    flag: 'max-body',
    env: 'RAIDER_MAX_BODY',
    type: 'string',
    value: 'BYTES',
    help: 'largest HTTP request body (default 1048576)',
  },
  {
    flag: 'ask-timeout',
    env: 'RAIDER_ASK_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: 'how long a question waits for its answer (default 1800)',
  },
  {
    flag: 'wait-deadline',
    env: 'RAIDER_WAIT_DEADLINE',
    type: 'string',
    value: 'SECONDS',
    help: "a waiting call (ask_user, wait_for_messages) answers after this instead of being cut (default: per client, 50 s for most; README's host table)",
  },
  {
    flag: 'progress-interval',
    env: 'RAIDER_PROGRESS_INTERVAL',
    type: 'string',
    value: 'SECONDS',
    help: 'how often a waiting call sends progress, when the client gave a token (default 15)',
  },
  {
    flag: 'question-expiry',
    env: 'RAIDER_QUESTION_EXPIRY',
    type: 'string',
    value: 'SECONDS',
    help: 'how long a question nobody answered stays open for a resume (default 3600)',
  },
  {
    flag: 'board',
    env: 'RAIDER_BOARD',
    type: 'boolean',
    help: 'with --http: a live board at / to watch the list and answer questions',
  },
  {
    flag: 'data-dir',
    env: 'RAIDER_DATA_DIR',
    type: 'string',
    value: 'DIR',
    help: "keep lists durable in DIR: a folder per list, one JSON file per task (Claude Code's layout)",
  },
  {
    flag: 'database-url',
    env: 'RAIDER_DATABASE_URL',
    type: 'string',
    value: 'URL',
    help: 'keep lists in PostgreSQL (postgres://user:password@host:5432/db), shared by every server on it',
  },
  {
    flag: 'database-pool-size',
    env: 'RAIDER_DATABASE_POOL_SIZE',
    type: 'string',
    value: 'N',
    help: 'with --database-url: most connections to the database, LISTEN aside (default 10)',
  },
  {
    flag: 'database-lock-timeout',
    env: 'RAIDER_DATABASE_LOCK_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: "with --database-url: a call waiting this long for a list another server holds fails (default 15; 0: PostgreSQL's)",
  },
  {
    flag: 'database-idle-timeout',
    env: 'RAIDER_DATABASE_IDLE_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: "with --database-url: PostgreSQL ends a call's transaction idle this long, a frozen server's (default 10; 0: PostgreSQL's)",
  },
  {
    flag: 'claims',
    env: 'RAIDER_CLAIMS',
    type: 'boolean',
    help: 'mount task_claim (TaskClaim): atomic claims with leases, for teams of agents',
  },
  {
    flag: 'team',
    env: 'RAIDER_TEAM',
    type: 'boolean',
    help: 'mount send_message and wait_for_messages, and wake agents when what they wait for changes',
  },
  {
    flag: 'agent',
    env: 'RAIDER_AGENT',
    type: 'string',
    value: 'NAME',
    help: "who this server's agent is (its task owner name and inbox); mounts the messaging tools",
  },
  {
    flag: 'structured-output',
    env: 'RAIDER_STRUCTURED_OUTPUT',
    type: 'boolean',
    help: 'results carry structuredContent (and tools output schemas); off, the model reads the text answers',
  },
  {
    flag: 'always-load',
    env: 'RAIDER_ALWAYS_LOAD',
    type: 'boolean',
    help: 'mark the tools anthropic/alwaysLoad: Claude Code loads them up front, not behind ToolSearch',
  },
  {
    flag: 'no-board-app',
    env: 'RAIDER_BOARD_APP',
    type: 'boolean',
    help: 'never offer the board as an MCP App, even to clients that render them (RAIDER_BOARD_APP=0)',
  },
  {
    flag: 'claude-tasks',
    env: 'RAIDER_CLAUDE_TASKS',
    type: 'boolean',
    help: "keep the list in Claude Code's task folder, the one its task panel (Ctrl+T) shows",
  },
  {
    flag: 'list',
    env: 'RAIDER_LIST_ID',
    type: 'string',
    value: 'ID',
    help: 'the list every conversation uses (share it across clients and processes)',
  },
  {
    flag: 'log-level',
    env: 'RAIDER_LOG_LEVEL',
    type: 'string',
    value: 'error|warn|info|debug',
    help: 'what goes to stderr (default info)',
  },
  ...limitFlags(),
  { flag: 'help', env: '', type: 'boolean', help: 'print this help and exit' },
  { flag: 'version', env: '', type: 'boolean', help: 'print the version and exit' },
];

/** The shortest token taken when the server listens off loopback. */
const MIN_TOKEN_LENGTH = 16;

/** Flags that only mean something to the HTTP server: given without --http they are refused. */
const HTTP_ONLY = [
  'host',
  'port',
  'token',
  'allowed-origins',
  'allowed-hosts',
  'max-sessions',
  'idle-timeout',
  'max-body',
];

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    throw new OptionsError(`${name}: expected one of ${allowed.join(', ')}, received ${JSON.stringify(value)}`);
  }
  return value as T;
}

function integer(flagName: string, value: string, min: number, max: number): number {
  const parsed = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new OptionsError(
      `${flagName}: expected a whole number from ${min} to ${max}, received ${JSON.stringify(value)}`,
    );
  }
  return parsed;
}

/** A number of seconds given as `value` (undefined when not given), in ms. */
function optionalSeconds(flagName: string, value: string | undefined, min: number, max: number): number | undefined {
  return value === undefined ? undefined : integer(flagName, value, min, max) * 1000;
}

function bool(name: string, value: string): boolean {
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off', ''].includes(value.toLowerCase())) return false;
  throw new OptionsError(`${name}: expected 1 or 0 (true or false), received ${JSON.stringify(value)}`);
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Three quarters of this process's file descriptor limit (its soft limit, read from
 * /proc/self/limits on Linux; 1024 where it cannot be read), at most 4096 and at least 64.
 */
export function defaultMaxConnections(): number {
  let soft = 1024;
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const value = Number(line?.split(/\s{2,}/)[1]);
    if (Number.isSafeInteger(value) && value > 0) soft = value;
  } catch {
    // Not Linux: keep the common default.
  }
  return Math.max(64, Math.min(4096, Math.floor(soft * 0.75)));
}

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The checks between settings: HTTP flags without --http, a list id that names no file, a token
 * too short (or empty) to guard a server off loopback.
 * @throws OptionsError naming the flag (or variable) and what was expected.
 */
function checkTogether(
  options: ServerOptions,
  values: Record<string, string | boolean | undefined>,
  name: (flag: string) => string,
): void {
  const host = options.host;
  const strayHttpFlag = HTTP_ONLY.find((flag) => values[flag] !== undefined);
  if (strayHttpFlag && !options.http) {
    throw new OptionsError(
      `--${strayHttpFlag}: expected --http as well (it sets the HTTP server, and without --http the server speaks stdio), received stdio`,
    );
  }
  if (options.board && !options.http) {
    throw new OptionsError('--board: expected --http as well (the board is a page of the HTTP server), received stdio');
  }
  if (options.list !== undefined) {
    try {
      listFolderName(options.list);
    } catch (error) {
      throw new OptionsError(`${name('list')}: ${(error as Error).message}`);
    }
  }
  const agentProblem = options.agent === undefined ? undefined : agentNameProblem(options.agent);
  if (agentProblem) throw new OptionsError(`${name('agent')}: ${agentProblem}`);
  if (options.stateSecret !== undefined && options.stateSecret.length < MIN_STATE_SECRET_LENGTH) {
    throw new OptionsError(
      `${name('state-secret')}: expected a secret of at least ${MIN_STATE_SECRET_LENGTH} characters (it is the HMAC key of every question's state), received ${options.stateSecret.length}`,
    );
  }
  if (values.token === '') {
    throw new OptionsError('--token: expected a secret of at least 16 characters, received an empty one');
  }
  if (options.http && !isLoopback(host) && options.token !== undefined && options.token.length < MIN_TOKEN_LENGTH) {
    throw new OptionsError(
      `${name('token')}: expected at least ${MIN_TOKEN_LENGTH} characters off loopback (the token is all that guards it), received ${options.token.length}`,
    );
  }
  if (options.http && !isLoopback(host) && !options.token) {
    throw new OptionsError(
      `--host ${host} is not a loopback address: expected a bearer token (--token or RAIDER_TOKEN) to protect it, received none`,
    );
  }
}

/**
 * Reads the settings from `argv` (without node and the script) and `env`.
 * @throws OptionsError for a flag or value that is wrong.
 */
export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ServerOptions {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(FLAGS.map((f) => [f.flag, { type: f.type }])),
    });
  } catch (error) {
    throw new OptionsError((error as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  // The flag, else its variable (an empty variable counts as unset).
  const raw = (flag: string): string | undefined => {
    const spec = FLAGS.find((f) => f.flag === flag) as Spec;
    const value = values[flag];
    if (value !== undefined) return String(value);
    const fromEnv = spec.env ? env[spec.env] : undefined;
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };
  const name = (flag: string) => {
    const spec = FLAGS.find((f) => f.flag === flag) as Spec;
    return values[flag] !== undefined || !spec.env ? `--${flag}` : spec.env;
  };
  const familyRaw = raw('family');
  let family: Family = 'tasks';
  if (familyRaw !== undefined) family = oneOf(name('family'), familyRaw, ['tasks', 'todo_write', 'todo'] as const);
  else if (env.RAIDER_ENABLE_TASKS !== undefined && !bool('RAIDER_ENABLE_TASKS', env.RAIDER_ENABLE_TASKS)) {
    family = 'todo_write';
  }
  const host = raw('host') ?? '127.0.0.1';
  const options: ServerOptions = {
    family,
    names: oneOf(name('names'), raw('names') ?? 'raider', ['raider', 'claude'] as const),
    http: values.http === true || (values.http === undefined && bool('RAIDER_HTTP', env.RAIDER_HTTP ?? '0')),
    host,
    port: integer(name('port'), raw('port') ?? '3333', 0, 65535),
    token: raw('token'),
    stateSecret: raw('state-secret'),
    allowedOrigins: list(raw('allowed-origins')),
    allowedHosts: list(raw('allowed-hosts')),
    maxSessions: integer(name('max-sessions'), raw('max-sessions') ?? '100', 1, 100_000),
    idleTimeoutMs: integer(name('idle-timeout'), raw('idle-timeout') ?? '1800', 1, 7 * 24 * 3600) * 1000,
    maxBodyBytes: integer(name('max-body'), raw('max-body') ?? String(1024 * 1024), 1024, 1024 * 1024 * 1024),
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    maxConnections: defaultMaxConnections(),
    askTimeoutMs: integer(name('ask-timeout'), raw('ask-timeout') ?? '1800', 1, 7 * 24 * 3600) * 1000,
    waitDeadlineMs: optionalSeconds(name('wait-deadline'), raw('wait-deadline'), 1, 24 * 3600),
    progressEveryMs: integer(name('progress-interval'), raw('progress-interval') ?? '15', 1, 3600) * 1000,
    questionExpiryMs: integer(name('question-expiry'), raw('question-expiry') ?? '3600', 1, 7 * 24 * 3600) * 1000,
    logLevel: oneOf(name('log-level'), raw('log-level') ?? 'info', ['error', 'warn', 'info', 'debug'] as const),
    board: values.board === true || (values.board === undefined && bool('RAIDER_BOARD', env.RAIDER_BOARD ?? '0')),
    dataDir: raw('data-dir'),
    list: raw('list'),
    databaseUrl: raw('database-url'),
    databasePoolSize: integer(name('database-pool-size'), raw('database-pool-size') ?? '10', 1, 10_000),
    databaseLockTimeoutMs:
      integer(name('database-lock-timeout'), raw('database-lock-timeout') ?? '15', 0, 24 * 3600) * 1000,
    databaseIdleTimeoutMs:
      integer(name('database-idle-timeout'), raw('database-idle-timeout') ?? '10', 0, 24 * 3600) * 1000,
    claims: values.claims === true || (values.claims === undefined && bool('RAIDER_CLAIMS', env.RAIDER_CLAIMS ?? '0')),
    team: values.team === true || (values.team === undefined && bool('RAIDER_TEAM', env.RAIDER_TEAM ?? '0')),
    agent: raw('agent'),
    boardApp: values['no-board-app'] !== true && bool('RAIDER_BOARD_APP', env.RAIDER_BOARD_APP ?? '1'),
    structuredOutput:
      values['structured-output'] === true ||
      (values['structured-output'] === undefined &&
        bool('RAIDER_STRUCTURED_OUTPUT', env.RAIDER_STRUCTURED_OUTPUT ?? '0')),
    alwaysLoad:
      values['always-load'] === true ||
      (values['always-load'] === undefined && bool('RAIDER_ALWAYS_LOAD', env.RAIDER_ALWAYS_LOAD ?? '0')),
    claudeTasks:
      values['claude-tasks'] === true ||
      (values['claude-tasks'] === undefined && bool('RAIDER_CLAUDE_TASKS', env.RAIDER_CLAUDE_TASKS ?? '0')),
    limits: Object.fromEntries(
      Object.entries(LIMIT_FLAGS).flatMap(([key, { flag }]) => {
        const value = raw(flag);
        return value === undefined ? [] : [[key, integer(name(flag), value, 1, 1_000_000_000)]];
      }),
    ),
    help: values.help === true,
    version: values.version === true,
  };
  if (options.databaseUrl !== undefined) checkDatabase(options, name);
  else checkNoDatabaseFlags(values);
  if (options.claudeTasks) useClaudeTasks(options, env, name);
  checkTogether(options, values, name);
  return options;
}

/**
 * With --database-url: a postgres:// URL, and no other place for lists beside it.
 * @throws OptionsError naming what is wrong (never the password).
 */
function checkDatabase(options: ServerOptions, name: (flag: string) => string): void {
  const url = options.databaseUrl as string;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['postgres:', 'postgresql:'].includes(parsed.protocol)) {
    throw new OptionsError(
      `${name('database-url')}: expected a URL such as postgres://user:password@host:5432/database, received one that is not (${url.length} characters)`,
    );
  }
  for (const other of ['data-dir', 'claude-tasks'] as const) {
    if ((other === 'data-dir' && options.dataDir !== undefined) || (other === 'claude-tasks' && options.claudeTasks)) {
      throw new OptionsError(
        `${name('database-url')}: expected no ${name(other)} beside it (lists live in one place), received both`,
      );
    }
  }
}

/** The flags that set the database's connections: given without --database-url they would do nothing. */
const DATABASE_ONLY = ['database-pool-size', 'database-lock-timeout', 'database-idle-timeout'];

/**
 * Without --database-url: none of the database's flags.
 * @throws OptionsError naming the first one given.
 */
function checkNoDatabaseFlags(values: Record<string, string | boolean | undefined>): void {
  const stray = DATABASE_ONLY.find((flag) => values[flag] !== undefined);
  if (stray) {
    throw new OptionsError(
      `--${stray}: expected --database-url as well (it sets the connections to the database, and without one lists do not live in PostgreSQL), received none`,
    );
  }
}

/**
 * With --claude-tasks: the data dir is Claude Code's task folder and the list the one Claude Code
 * uses for the session (`CLAUDE_CODE_TASK_LIST_ID`, else `CLAUDE_CODE_SESSION_ID`, sanitised as
 * Claude Code does), unless --list names another.
 * @throws OptionsError with --data-dir as well, or with no list to take.
 */
function useClaudeTasks(options: ServerOptions, env: NodeJS.ProcessEnv, name: (flag: string) => string): void {
  if (options.dataDir !== undefined) {
    throw new OptionsError(
      `${name('claude-tasks')}: expected no ${name('data-dir')} beside it (it keeps lists in Claude Code's task folder), received both`,
    );
  }
  const claude = claudeTaskFolder(env, env.HOME || homedir());
  options.dataDir = claude.dataDir;
  options.list ??= claude.listId;
  if (options.list === undefined) {
    throw new OptionsError(
      `${name('claude-tasks')}: expected CLAUDE_CODE_TASK_LIST_ID or CLAUDE_CODE_SESSION_ID in the environment (Claude Code sets CLAUDE_CODE_SESSION_ID for the servers it starts), or --list, received none`,
    );
  }
}

/** The text of --help. */
export function helpText(): string {
  const rows = FLAGS.map((f) => {
    const left = `  --${f.flag}${f.value ? ` ${f.value}` : ''}`;
    return `${left.padEnd(40)}${f.help}${f.env ? ` [${f.env}]` : ''}`;
  });
  return [
    'Usage: raider-server [options]',
    '',
    "An MCP server with Claude Code's task list, todo list and question tools.",
    'stdio by default; --http serves Streamable HTTP at /mcp (GET /healthz for health).',
    '',
    'Options (each with an environment variable twin; a flag beats its variable):',
    ...rows,
    '',
    'RAIDER_ENABLE_TASKS=0 mounts todo_write instead of the task tools (as Claude Code does).',
  ].join('\n');
}
