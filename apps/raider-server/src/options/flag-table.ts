/**
 * The command line as one table: every flag with its environment twin, the setting it fills, its
 * default, its parser, what it needs beside it and its help line. Adding a flag is adding a row:
 * readOptions (read-options.ts) reads it and --help (help.ts) prints it from here.
 */
import type { Flag, FlagParser } from './flag-row.js';
import { limitFlags } from './limit-flags.js';
import { bool, commaList, integer, oneOf, seconds } from './values.js';

export type { Flag, FlagParser, OptionKey } from './flag-row.js';

const DAY = 24 * 3600;
const WEEK = 7 * DAY;

/** A whole number from min to max. */
const whole =
  (min: number, max: number): FlagParser =>
  (text, name) =>
    integer(name, text, min, max);

/** A whole number of seconds from min to max, in ms. */
const inSeconds =
  (min: number, max: number): FlagParser =>
  (text, name) =>
    seconds(name, text, min, max);

/** One of the words given. */
const choice =
  (...allowed: string[]): FlagParser =>
  (text, name) =>
    oneOf(name, text, allowed);

/** The family when none is given: todo_write when RAIDER_ENABLE_TASKS is off (as Claude Code does), else tasks. */
function familyDefault(env: NodeJS.ProcessEnv): string {
  const enableTasks = env.RAIDER_ENABLE_TASKS;
  return enableTasks !== undefined && !bool('RAIDER_ENABLE_TASKS', enableTasks) ? 'todo_write' : 'tasks';
}

export { envOf, LIMIT_FLAGS, MAX_METADATA_DEPTH_LIMIT } from './limit-flags.js';

/** Every flag, in the order --help lists them. */
export const FLAGS: readonly Flag[] = [
  {
    flag: 'family',
    env: 'RAIDER_FAMILY',
    type: 'string',
    value: 'tasks|todo_write|todo',
    help: 'task-list family (default tasks; todo_write when RAIDER_ENABLE_TASKS=0)',
    key: 'family',
    default: familyDefault,
    parse: choice('tasks', 'todo_write', 'todo'),
  },
  {
    flag: 'names',
    env: 'RAIDER_NAMES',
    type: 'string',
    value: 'raider|claude',
    help: "tool names: raider's (default) or Claude Code's",
    key: 'names',
    default: 'raider',
    parse: choice('raider', 'claude'),
  },
  {
    flag: 'http',
    env: 'RAIDER_HTTP',
    type: 'boolean',
    help: 'serve Streamable HTTP at /mcp instead of stdio',
    key: 'http',
  },
  {
    flag: 'host',
    env: 'RAIDER_HOST',
    type: 'string',
    value: 'ADDRESS',
    help: 'HTTP bind address (default 127.0.0.1)',
    key: 'host',
    default: '127.0.0.1',
    needs: '--http',
  },
  {
    flag: 'port',
    env: 'RAIDER_PORT',
    type: 'string',
    value: 'PORT',
    help: 'HTTP port (default 3333; 0 picks a free one)',
    key: 'port',
    default: '3333',
    parse: whole(0, 65535),
    needs: '--http',
  },
  {
    flag: 'token',
    env: 'RAIDER_TOKEN',
    type: 'string',
    value: 'TOKEN',
    help: 'bearer token HTTP clients must send (required off loopback)',
    key: 'token',
    needs: '--http',
  },
  {
    flag: 'agents',
    env: 'RAIDER_AGENTS',
    type: 'string',
    value: 'FILE',
    help: "agents and their tokens (JSON or TOML; 'database': the raider_agents table): each client is who its token says",
    key: 'agents',
    needs: '--http',
  },
  {
    flag: 'state-secret',
    env: 'RAIDER_STATE_SECRET',
    type: 'string',
    value: 'SECRET',
    help: "key signing a question's state across 2026-era clients; the same on every replica (default: one per process)",
    key: 'stateSecret',
  },
  {
    flag: 'allowed-origins',
    env: 'RAIDER_ALLOWED_ORIGINS',
    type: 'string',
    value: 'LIST',
    help: 'comma-separated extra Origins allowed',
    key: 'allowedOrigins',
    default: '',
    parse: commaList,
    needs: '--http',
  },
  {
    flag: 'allowed-hosts',
    env: 'RAIDER_ALLOWED_HOSTS',
    type: 'string',
    value: 'LIST',
    help: 'comma-separated extra Host header values allowed',
    key: 'allowedHosts',
    default: '',
    parse: commaList,
    needs: '--http',
  },
  {
    flag: 'max-sessions',
    env: 'RAIDER_MAX_SESSIONS',
    type: 'string',
    value: 'N',
    help: 'concurrent HTTP sessions (default 100; 503 beyond)',
    key: 'maxSessions',
    default: '100',
    parse: whole(1, 100_000),
    needs: '--http',
  },
  {
    flag: 'idle-timeout',
    env: 'RAIDER_IDLE_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: 'an idle HTTP session ends after this (default 1800)',
    key: 'idleTimeoutMs',
    default: '1800',
    parse: inSeconds(1, WEEK),
    needs: '--http',
  },
  {
    flag: 'max-body',
    env: 'RAIDER_MAX_BODY',
    type: 'string',
    value: 'BYTES',
    help: 'largest HTTP request body (default 1048576)',
    key: 'maxBodyBytes',
    default: String(1024 * 1024),
    parse: whole(1024, 1024 * 1024 * 1024),
    needs: '--http',
  },
  {
    flag: 'ask-timeout',
    env: 'RAIDER_ASK_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: 'how long a question waits for its answer (default 1800)',
    key: 'askTimeoutMs',
    default: '1800',
    parse: inSeconds(1, WEEK),
  },
  {
    flag: 'wait-deadline',
    env: 'RAIDER_WAIT_DEADLINE',
    type: 'string',
    value: 'SECONDS',
    help: "a waiting call (ask_user, wait_for_messages) answers after this instead of being cut (default: per client, 50 s for most; README's host table)",
    key: 'waitDeadlineMs',
    parse: inSeconds(1, DAY),
  },
  {
    flag: 'progress-interval',
    env: 'RAIDER_PROGRESS_INTERVAL',
    type: 'string',
    value: 'SECONDS',
    help: 'how often a waiting call sends progress, when the client gave a token (default 15)',
    key: 'progressEveryMs',
    default: '15',
    parse: inSeconds(1, 3600),
  },
  {
    flag: 'question-expiry',
    env: 'RAIDER_QUESTION_EXPIRY',
    type: 'string',
    value: 'SECONDS',
    help: 'how long a question nobody answered stays open for a resume (default 3600)',
    key: 'questionExpiryMs',
    default: '3600',
    parse: inSeconds(1, WEEK),
  },
  {
    flag: 'board',
    env: 'RAIDER_BOARD',
    type: 'boolean',
    help: 'with --http: a live board at / to watch the list and answer questions',
    key: 'board',
  },
  {
    flag: 'data-dir',
    env: 'RAIDER_DATA_DIR',
    type: 'string',
    value: 'DIR',
    help: "keep lists durable in DIR: a folder per list, one JSON file per task (Claude Code's layout)",
    key: 'dataDir',
  },
  {
    flag: 'database-url',
    env: 'RAIDER_DATABASE_URL',
    type: 'string',
    value: 'URL',
    help: 'keep lists in PostgreSQL (postgres://user:password@host:5432/db), shared by every server on it',
    key: 'databaseUrl',
  },
  {
    flag: 'database-pool-size',
    env: 'RAIDER_DATABASE_POOL_SIZE',
    type: 'string',
    value: 'N',
    help: 'with --database-url: most connections to the database, LISTEN aside (default 10)',
    key: 'databasePoolSize',
    default: '10',
    parse: whole(1, 10_000),
    needs: '--database-url',
  },
  {
    flag: 'database-lock-timeout',
    env: 'RAIDER_DATABASE_LOCK_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: "with --database-url: a call waiting this long for a list another server holds fails (default 15; 0: PostgreSQL's)",
    key: 'databaseLockTimeoutMs',
    default: '15',
    parse: inSeconds(0, DAY),
    needs: '--database-url',
  },
  {
    flag: 'database-idle-timeout',
    env: 'RAIDER_DATABASE_IDLE_TIMEOUT',
    type: 'string',
    value: 'SECONDS',
    help: "with --database-url: PostgreSQL ends a call's transaction idle this long, a frozen server's (default 10; 0: PostgreSQL's)",
    key: 'databaseIdleTimeoutMs',
    default: '10',
    parse: inSeconds(0, DAY),
    needs: '--database-url',
  },
  {
    flag: 'wait-for-database',
    env: 'RAIDER_WAIT_FOR_DATABASE',
    type: 'boolean',
    help: 'with --database-url: at start, wait for a database that cannot be reached (default: report it and exit 1)',
    key: 'waitForDatabase',
    needs: '--database-url',
  },
  {
    flag: 'claims',
    env: 'RAIDER_CLAIMS',
    type: 'boolean',
    help: 'mount task_claim (TaskClaim): atomic claims with leases, for teams of agents',
    key: 'claims',
  },
  {
    flag: 'team',
    env: 'RAIDER_TEAM',
    type: 'boolean',
    help: 'mount send_message and wait_for_messages, and wake agents when what they wait for changes',
    key: 'team',
  },
  {
    flag: 'agent',
    env: 'RAIDER_AGENT',
    type: 'string',
    value: 'NAME',
    help: "who this server's agent is (its task owner name and inbox); mounts the messaging tools",
    key: 'agent',
  },
  {
    flag: 'send-to-unseen',
    env: 'RAIDER_SEND_TO_UNSEEN',
    type: 'boolean',
    help: 'send_message may write to an agent that never connected to the list (default: refused, with the names that exist)',
    key: 'sendToUnseen',
  },
  {
    flag: 'structured-output',
    env: 'RAIDER_STRUCTURED_OUTPUT',
    type: 'boolean',
    help: 'results carry structuredContent (and tools output schemas); off, the model reads the text answers',
    key: 'structuredOutput',
  },
  {
    flag: 'always-load',
    env: 'RAIDER_ALWAYS_LOAD',
    type: 'boolean',
    help: 'mark the tools anthropic/alwaysLoad: Claude Code loads them up front, not behind ToolSearch',
    key: 'alwaysLoad',
  },
  {
    flag: 'no-board-app',
    env: 'RAIDER_BOARD_APP',
    type: 'boolean',
    help: 'never offer the board as an MCP App, even to clients that render them (RAIDER_BOARD_APP=0)',
    key: 'boardApp',
    default: '1',
    turnsOff: true,
  },
  {
    flag: 'claude-tasks',
    env: 'RAIDER_CLAUDE_TASKS',
    type: 'boolean',
    help: "keep the list in Claude Code's task folder, the one its task panel (Ctrl+T) shows",
    key: 'claudeTasks',
  },
  {
    flag: 'list',
    env: 'RAIDER_LIST_ID',
    type: 'string',
    value: 'ID',
    help: 'the list every conversation uses (share it across clients and processes)',
    key: 'list',
  },
  {
    flag: 'log-level',
    env: 'RAIDER_LOG_LEVEL',
    type: 'string',
    value: 'error|warn|info|debug',
    help: 'what goes to stderr (default info)',
    key: 'logLevel',
    default: 'info',
    parse: choice('error', 'warn', 'info', 'debug'),
  },
  ...limitFlags(whole),
  { flag: 'help', env: '', type: 'boolean', help: 'print this help and exit', key: 'help' },
  { flag: 'version', env: '', type: 'boolean', help: 'print the version and exit', key: 'version' },
];
