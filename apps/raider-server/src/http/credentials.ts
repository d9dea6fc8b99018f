/**
 * The HTTP server's credentials (`--agents`, issue 38): the table of agents it reads at start (a
 * file, inline JSON, or the `raider_agents` table of its database), kept current while it runs,
 * and the count of refused tokens per address. Opened before the server listens, so a table that
 * cannot be read stops the start with its reason.
 */

import type { AgentSource } from '../credentials/agent-source.js';
import type { AgentTable } from '../credentials/agent-table.js';
import { fileAgentSource } from '../credentials/agent-table-file.js';
import { databaseAgentSource } from '../credentials/agents-database.js';
import { FailureLimiter } from '../credentials/failure-limit.js';
import type { Logger } from '../log.js';
import type { ServerOptions } from '../options.js';

/** What the guard reads at each request, and what the server closes at the end. */
export interface OpenCredentials {
  /** The table in force now. */
  table(): AgentTable;
  /** Refused tokens per client address (429 past 50 a minute). */
  readonly limiter: FailureLimiter;
  /** Stops watching the table (its file watch, its database connection). */
  close(): Promise<void>;
}

/** "1 entry", "4 entries". */
const entries = (table: AgentTable): string =>
  `${table.entries.length} ${table.entries.length === 1 ? 'entry' : 'entries'}`;

/** What a refused start says (the CLI prints it as it is). */
export class CredentialsStartError extends Error {}

/**
 * Opens the table `options.agents` names (`database`: the `raider_agents` table of
 * `options.databaseUrl`). Changes to it take effect while the server runs; a change that does not
 * read keeps the table in force and is logged.
 * @throws CredentialsStartError when it cannot be read, or the board is on and no entry may open it.
 */
export async function openCredentials(options: ServerOptions, log: Logger): Promise<OpenCredentials> {
  const watch = {
    onProblem: (message: string) => log.warn(`--agents: ${message}`),
    onReload: (table: AgentTable) => log.info(`the agents table changed: ${entries(table)}`),
  };
  let source: AgentSource;
  try {
    source =
      options.agents === 'database'
        ? await databaseAgentSource(options.databaseUrl as string, watch)
        : await fileAgentSource(options.agents as string, watch);
  } catch (error) {
    throw new CredentialsStartError(`--agents: ${(error as Error).message}`);
  }
  const first = source.current();
  if (options.board && !first.entries.some((entry) => entry.board)) {
    await source.close();
    throw new CredentialsStartError(
      '--agents: expected an entry with board = true beside --board (a board token names the person who answers there), received none',
    );
  }
  log.info(`agents table: ${entries(first)}; each client is the agent its token names`);
  return { table: () => source.current(), limiter: new FailureLimiter(), close: () => source.close() };
}
