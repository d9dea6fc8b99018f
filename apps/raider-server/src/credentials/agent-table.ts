/**
 * The table of agents (issue 38): who an agent is, decided by its bearer token. Each entry names
 * an agent, the lists it may use and whether it may open the board; of its token the table keeps
 * only the SHA-256, and `identify` finds the entry of a presented token in a time that does not
 * depend on which entry (if any) it is. Where the table comes from: agent-table-file.ts (a JSON or
 * TOML file, or inline JSON) and agents-database.ts (PostgreSQL).
 */
import { timingSafeEqual } from 'node:crypto';
import { received } from '@raider/kit/received';
import { parse as parseToml } from 'smol-toml';
import {
  type AgentEntry,
  type Credential,
  checkedEntry,
  checkedFileEntry,
  checkedTogether,
  tokenDigest,
} from './agent-entries.js';
import { CredentialsError } from './credentials-error.js';
import { jsonProblem, tomlProblem } from './parse-problems.js';

export type { AgentEntry } from './agent-entries.js';
// Beside the table, since whoever parses a table catches it.
export { CredentialsError } from './credentials-error.js';

/**
 * How `identify` compares the presented token's digest with an entry's (both 32 bytes): true when
 * they are the same. `crypto.timingSafeEqual`, but for a test that counts the comparisons.
 */
export type DigestComparison = (presented: Buffer, known: Buffer) => boolean;

/** A row of the PostgreSQL table `raider_agents`, as `AgentTable.fromRows` takes it. */
export interface AgentRow {
  name: string;
  /** The SHA-256 of the token in hex (the column `token_sha256`). */
  sha256: string;
  lists: readonly string[] | null;
  board: boolean;
}

/** What a file's top level may hold besides the agents: nothing. */
const TOP_KEYS = ['agents'];

/** The entries of a parsed file: `{ agents: [...] }` (JSON or TOML) or a bare array (JSON). @throws CredentialsError */
function itemsOf(value: unknown, source: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) {
    throw new CredentialsError(
      `${source}: expected an agent table ({"agents": [...]} or [...]), received ${value === null ? 'null' : `a ${typeof value}`}`,
    );
  }
  const unknown = Object.keys(value).find((key) => !TOP_KEYS.includes(key));
  if (unknown !== undefined) {
    throw new CredentialsError(
      `${source}: expected only the key agents at the top, received the key ${received(unknown)}`,
    );
  }
  const { agents } = value as { agents?: unknown };
  if (agents === undefined) return [];
  if (!Array.isArray(agents)) {
    const kind = agents === null ? 'null' : typeof agents === 'object' ? 'one table' : `a ${typeof agents}`;
    throw new CredentialsError(
      `${source}: expected agents to be an array of agents ([[agents]] tables in TOML), received ${kind}`,
    );
  }
  return agents;
}

/** The parsed text of a file. @throws CredentialsError */
function parsedText(text: string, format: 'json' | 'toml', source: string): unknown {
  // An editor's byte order mark is not part of the table.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return format === 'toml' ? parseToml(body) : JSON.parse(body);
  } catch (error) {
    const problem = format === 'toml' ? tomlProblem(error) : jsonProblem(error, body);
    const expected = format === 'toml' ? 'an agent table in TOML ([[agents]] tables)' : 'an agent table in JSON';
    throw new CredentialsError(`${source}: expected ${expected}, received text that does not parse: ${problem}`);
  }
}

/** A parsed, checked table. */
export class AgentTable {
  /** Every entry, in the table's order. */
  readonly entries: readonly AgentEntry[];
  readonly #credentials: readonly Credential[];
  readonly #byName: ReadonlyMap<string, AgentEntry>;
  readonly #compare: DigestComparison;

  private constructor(credentials: readonly Credential[], compare: DigestComparison = timingSafeEqual) {
    this.#credentials = credentials;
    this.#compare = compare;
    this.entries = Object.freeze(credentials.map(({ entry }) => entry));
    this.#byName = new Map(this.entries.map((entry) => [entry.name, entry]));
  }

  /**
   * Parses `text` (format 'json' | 'toml'); `source` names it in errors (a path, 'RAIDER_AGENTS',
   * 'raider_agents'). Unknown keys, duplicate names or tokens, short tokens, bad hex, bad names or
   * list ids and an empty table are refused.
   * @throws CredentialsError
   */
  static parse(text: string, format: 'json' | 'toml', source: string): AgentTable {
    const items = itemsOf(parsedText(text, format, source), source);
    const credentials = items.map((raw, index) => checkedFileEntry(raw, `${source}: agents[${index}]`));
    const empty = `${source}: expected at least one agent, received a table without any`;
    return new AgentTable(checkedTogether(credentials, source, (index) => `agents[${index}]`, empty));
  }

  /**
   * Builds from rows (the PostgreSQL table): { name, sha256 (hex), lists (string[] | null), board }.
   * No rows is refused with how to add one.
   * @throws CredentialsError
   */
  static fromRows(rows: readonly AgentRow[], source: string): AgentTable {
    const credentials = rows.map((row, index) =>
      checkedEntry(
        { name: row.name, sha256: row.sha256, lists: row.lists ?? undefined, board: row.board },
        `${source}: row ${index + 1}`,
        'token_sha256',
      ),
    );
    const empty = `${source} has no agents: add one with INSERT INTO raider_agents (name, token_sha256) VALUES ('<name>', '<the SHA-256 of its token, as printf %s "$TOKEN" | sha256sum prints it>')`;
    return new AgentTable(checkedTogether(credentials, source, (index) => `row ${index + 1}`, empty));
  }

  /** True when `entry` may use list `listId` (no `lists`: every list). */
  static mayUseList(entry: AgentEntry, listId: string): boolean {
    return entry.lists === undefined || entry.lists.includes(listId);
  }

  /**
   * The entry whose token `presented` is, or undefined. Constant time in the presented token: it
   * hashes the presented token once (SHA-256 of its UTF-8 bytes) and compares that digest with
   * EVERY entry's digest (timingSafeEqual on 32-byte buffers), with no early exit, so neither
   * the time nor the work tells which entry matched or how much of a token was right. A
   * non-string is the empty token, which no entry has.
   */
  identify(presented: string): AgentEntry | undefined {
    const digest = tokenDigest(typeof presented === 'string' ? presented : '');
    let found: AgentEntry | undefined;
    for (const { entry, digest: known } of this.#credentials) {
      // Tokens are unique (parse refuses a repeated digest), so at most one comparison is true.
      if (this.#compare(digest, known)) found = entry;
    }
    return found;
  }

  /** The entry named `name`, or undefined. */
  byName(name: string): AgentEntry | undefined {
    return this.#byName.get(name);
  }

  /** The same table, with `compare` in place of timingSafeEqual: for the test that counts comparisons only. */
  withComparisonForTests(compare: DigestComparison): AgentTable {
    return new AgentTable(this.#credentials, compare);
  }
}
