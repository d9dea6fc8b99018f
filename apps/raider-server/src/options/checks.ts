/**
 * The checks between settings, once each is read: flags that need another (`needs` in the
 * table), one place for lists, Claude Code's task folder, names and secrets.
 * @throws OptionsError from each, naming the flag (or variable) and what was expected.
 */
import { homedir } from 'node:os';
import { claudeTaskFolder, listFolderName } from '@raider/file-store';
import { agentNameProblem } from '../agent-name.js';
import { OptionsError } from '../errors.js';
import { FLAGS } from './flag-table.js';
import type { ServerOptions } from './server-options.js';
import { isLoopback } from './values.js';

/** The flag given, or the variable read when it was not: what an error names. */
export type NameOf = (flag: string) => string;

/** What parseArgs read of the command line, by flag. */
export type FlagValues = Record<string, string | boolean | undefined>;

/** The shortest token taken when the server listens off loopback. */
const MIN_TOKEN_LENGTH = 16;

/** The shortest --state-secret taken: it is the HMAC key of a question's state, at least 256 bits for the SDK. */
export const MIN_STATE_SECRET_LENGTH = 32;

/**
 * The checks between settings: HTTP flags without --http, a list id that names no file, a token
 * too short (or empty) to guard a server off loopback.
 * @throws OptionsError naming the flag (or variable) and what was expected.
 */
export function checkTogether(options: ServerOptions, values: FlagValues, name: NameOf): void {
  const host = options.host;
  const strayHttpFlag = FLAGS.find((f) => f.needs === '--http' && values[f.flag] !== undefined)?.flag;
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
  checkAgents(options, name);
  if (options.http && !isLoopback(host) && !options.token && options.agents === undefined) {
    throw new OptionsError(
      `--host ${host} is not a loopback address: expected a bearer token (--token or RAIDER_TOKEN) or a table of agents (--agents) to protect it, received neither`,
    );
  }
}

/**
 * With --agents: no shared --token and no --agent for every client beside it (each token names its
 * own agent), and `database` only with a database.
 * @throws OptionsError naming the clash.
 */
function checkAgents(options: ServerOptions, name: NameOf): void {
  if (options.agents === undefined) return;
  if (options.agents.trim() === '') {
    throw new OptionsError(`${name('agents')}: expected a file of agents and their tokens, received an empty value`);
  }
  if (options.token !== undefined) {
    throw new OptionsError(
      `${name('agents')}: expected no ${name('token')} beside it (each client sends its own token from the table), received both`,
    );
  }
  if (options.agent !== undefined) {
    throw new OptionsError(
      `${name('agents')}: expected no ${name('agent')} beside it (each token names its own agent), received both`,
    );
  }
  if (options.agents === 'database' && options.databaseUrl === undefined) {
    throw new OptionsError(
      `${name('agents')} database: expected --database-url as well (the table raider_agents lives there), received none`,
    );
  }
}

/**
 * With --database-url: a postgres:// URL, and no other place for lists beside it.
 * @throws OptionsError naming what is wrong (never the password).
 */
export function checkDatabase(options: ServerOptions, name: NameOf): void {
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

/**
 * Without --database-url: none of the database's flags.
 * @throws OptionsError naming the first one given.
 */
export function checkNoDatabaseFlags(values: FlagValues): void {
  // The flags that set the database's connections: without --database-url they would do nothing.
  const stray = FLAGS.find((f) => f.needs === '--database-url' && values[f.flag] !== undefined)?.flag;
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
export function useClaudeTasks(options: ServerOptions, env: NodeJS.ProcessEnv, name: NameOf): void {
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
