/**
 * The rules of one entry of the agent table and of the table as a whole (issue 38), shared by the
 * file (JSON or TOML) and the PostgreSQL table `raider_agents`: what an entry may hold, and that
 * no two entries share a name or a token. A token is never put in a message: only its length.
 */
import { createHash } from 'node:crypto';
import { ListIdError, listFolderName } from '@raider/file-store';
import { received } from '@raider/kit/received';
import { agentNameProblem } from '../agent-name.js';
import { CredentialsError } from './credentials-error.js';

/** One agent of the table (or a person, when board is true). */
export interface AgentEntry {
  /** The agent's name: the `owner` it uses on tasks, checked by `agentNameProblem`. */
  readonly name: string;
  /** The list ids it may use, or undefined for every list. */
  readonly lists: readonly string[] | undefined;
  /** Whether its token may open the web board (the name is then the person who answers there). */
  readonly board: boolean;
}

/** An entry with the SHA-256 of its token (32 bytes): all the table keeps of a secret. */
export interface Credential {
  readonly entry: AgentEntry;
  readonly digest: Buffer;
}

/** The shortest token a table takes, in characters. */
export const MIN_TOKEN_LENGTH = 16;

/** The keys an entry may have. */
const KEYS = ['name', 'token', 'sha256', 'lists', 'board'];

const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;

/** The SHA-256 of the empty token: a digest no token of the table can have. */
const EMPTY_DIGEST = createHash('sha256').digest('hex');

/** The SHA-256 of `token`'s UTF-8 bytes (what `printf %s "$TOKEN" | sha256sum` prints, as bytes). */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** How a checked entry is named in messages: `agents[2] ("alice")`. */
function named(where: string, name: string): string {
  return `${where} (${received(name)})`;
}

/** The digest of an entry's `token`. @throws CredentialsError */
function digestOfToken(token: unknown, at: string): Buffer {
  const expected = `expected token to be a string of at least ${MIN_TOKEN_LENGTH} characters`;
  if (typeof token !== 'string')
    throw new CredentialsError(`${at}: ${expected}, received ${received(token, { by: 'kind' })}`);
  const length = [...token].length;
  if (length < MIN_TOKEN_LENGTH) throw new CredentialsError(`${at}: ${expected}, received one of ${length} characters`);
  return tokenDigest(token);
}

/** An entry's `sha256` (named `label` in messages) as bytes. @throws CredentialsError */
function digestOfHex(hex: unknown, at: string, label: string): Buffer {
  const expected = `expected ${label} to be 64 hex characters (the SHA-256 of the token, as printf %s "$TOKEN" | sha256sum prints it)`;
  if (typeof hex !== 'string')
    throw new CredentialsError(`${at}: ${expected}, received ${received(hex, { by: 'kind' })}`);
  if (!HEX_DIGEST.test(hex)) {
    const what = hex.length === 64 ? 'characters that are not hex' : `a string of ${hex.length} characters`;
    throw new CredentialsError(`${at}: ${expected}, received ${what}`);
  }
  if (hex.toLowerCase() === EMPTY_DIGEST) {
    throw new CredentialsError(
      `${at}: expected ${label} of a token of at least ${MIN_TOKEN_LENGTH} characters, received the SHA-256 of an empty token`,
    );
  }
  return Buffer.from(hex, 'hex');
}

/** An entry's `lists`: undefined (every list) or list ids. @throws CredentialsError */
function checkedLists(lists: unknown, at: string): readonly string[] | undefined {
  if (lists === undefined) return undefined;
  if (!Array.isArray(lists)) {
    throw new CredentialsError(
      `${at}: expected lists to be an array of list ids, received ${received(lists, { by: 'kind' })}`,
    );
  }
  return Object.freeze(
    lists.map((id: unknown, index) => {
      if (typeof id !== 'string') {
        throw new CredentialsError(
          `${at}: expected lists[${index}] to be a list id (a string), received ${received(id, { by: 'kind' })}`,
        );
      }
      try {
        listFolderName(id);
      } catch (error) {
        if (!(error instanceof ListIdError)) throw error;
        throw new CredentialsError(`${at}: lists[${index}]: ${(error as Error).message}`);
      }
      return id;
    }),
  );
}

/** What an entry holds, however its source spells it. */
export interface RawEntry {
  name?: unknown;
  token?: unknown;
  sha256?: unknown;
  lists?: unknown;
  board?: unknown;
}

/**
 * Checks one entry at `where` (`<source>: agents[2]`). `digestLabel` is what its `sha256` is
 * called where it comes from (`token_sha256` in PostgreSQL). @throws CredentialsError
 */
export function checkedEntry(raw: RawEntry, where: string, digestLabel = 'sha256'): Credential {
  const { name, token, sha256, lists, board } = raw;
  if (name === undefined) throw new CredentialsError(`${where}: expected a name, received an entry without one`);
  const problem = agentNameProblem(name);
  if (problem !== undefined) throw new CredentialsError(`${where}: ${problem}`);
  const at = named(where, name as string);
  if (token !== undefined && sha256 !== undefined) {
    throw new CredentialsError(`${at}: expected exactly one of token or ${digestLabel}, received both`);
  }
  if (token === undefined && sha256 === undefined) {
    throw new CredentialsError(
      `${at}: expected a token (the secret itself) or ${digestLabel} (the SHA-256 of it in hex), received neither`,
    );
  }
  const digest = token !== undefined ? digestOfToken(token, at) : digestOfHex(sha256, at, digestLabel);
  if (board !== undefined && typeof board !== 'boolean') {
    throw new CredentialsError(`${at}: expected board to be true or false, received ${received(board)}`);
  }
  const entry: AgentEntry = Object.freeze({
    name: name as string,
    lists: checkedLists(lists, at),
    board: board ?? false,
  });
  return { entry, digest };
}

/**
 * Checks an entry of a file: an object with only the keys of an entry. `where` is
 * `<source>: agents[2]`. @throws CredentialsError
 */
export function checkedFileEntry(raw: unknown, where: string): Credential {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new CredentialsError(
      `${where}: expected an agent (a table with a name and a token or sha256), received ${received(raw, { by: 'kind' })}`,
    );
  }
  const unknown = Object.keys(raw).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) {
    throw new CredentialsError(
      `${where}: expected only the keys name, token, sha256, lists and board, received the key ${received(unknown)}`,
    );
  }
  return checkedEntry(raw as RawEntry, where);
}

/**
 * Checks that no two credentials share a name or a token, and that there is one at least.
 * `placeOf(i)` names the i-th one in `source` (`agents[2]`, `row 3`); `empty` is the message of
 * a table without entries. @throws CredentialsError
 */
export function checkedTogether(
  credentials: readonly Credential[],
  source: string,
  placeOf: (index: number) => string,
  empty: string,
): readonly Credential[] {
  if (credentials.length === 0) throw new CredentialsError(empty);
  const names = new Map<string, number>();
  const digests = new Map<string, number>();
  credentials.forEach(({ entry, digest }, index) => {
    const at = `${source}: ${named(placeOf(index), entry.name)}`;
    const sameName = names.get(entry.name);
    if (sameName !== undefined) {
      throw new CredentialsError(`${at}: expected each name once, received the name of ${placeOf(sameName)} again`);
    }
    const hex = digest.toString('hex');
    const sameToken = digests.get(hex);
    if (sameToken !== undefined) {
      const other = named(placeOf(sameToken), credentials[sameToken]?.entry.name ?? '');
      throw new CredentialsError(`${at}: expected a token of its own, received the token of ${other}`);
    }
    names.set(entry.name, index);
    digests.set(hex, index);
  });
  return credentials;
}
