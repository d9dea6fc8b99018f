/**
 * What a running server holds of its table of agents (issue 38): the table in force now, which a
 * file source (agent-table-file.ts) or a database source (agents-database.ts) replaces when its
 * origin changes and the change is a good table.
 */
import type { AgentTable } from './agent-table.js';

/**
 * Where a running server gets its table: `current()` is always a checked table. A change that
 * does not parse (or cannot be read) keeps the table in force and is reported to `onProblem`;
 * one that does replaces it and is reported to `onReload`. `close()` stops watching or polling
 * and waits for a read under way.
 */
export interface AgentSource {
  /** The table in force: the first one read, or the last good one since. */
  current(): AgentTable;
  /** Stops watching (or polling) and waits for a read under way; `current()` still answers. */
  close(): Promise<void>;
}

/** What a source is told to do when its origin changes. */
export interface AgentSourceOptions {
  /** Called with a one-line message when a change cannot be used (the table in force stays). */
  onProblem(message: string): void;
  /** Called with the new table once it is in force. */
  onReload?(table: AgentTable): void;
  /** How often the origin is looked at, in ms (a file: 1000, the database: 2000); tests use less. */
  pollMs?: number;
}
