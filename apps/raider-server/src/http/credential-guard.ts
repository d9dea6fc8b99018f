/**
 * The guard's answer when the server has a table of agents (`--agents`, issue 38): the bearer token
 * decides who a client is. Called by guard.ts after the Host, Origin and OAuth checks.
 *
 * - An address that had `FailureLimiter`'s limit of refused credentials within a minute gets 429
 *   (before its token is looked at: a guesser is slowed down, the others are not).
 * - The token is looked up in constant time (`AgentTable.identify`: one digest, compared with
 *   every entry's, no early exit), so a refused token costs what an accepted one does.
 * - On /mcp, `X-Raider-Agent` may only repeat the token's name: naming another agent is a 403 that
 *   says so. On the board's routes the token must be a board token (`board = true`): its name is
 *   the person who answers there.
 * - Nothing here logs or echoes a token: refusals name the agent the token is, never the token.
 */
import type { IncomingMessage } from 'node:http';
import { type AgentEntry, AgentTable } from '../credentials/agent-table.js';
import type { FailureLimiter } from '../credentials/failure-limit.js';
import { AGENT_HEADER, agentFromHeader } from './agent-header.js';
import { LIST_HEADER } from './list-header.js';

/** Who a request is, as its credential says: the table's entry. */
export type Credential = AgentEntry;

/** What the credential check answers: the entry, or a refusal (the guard's `refuse` verdict's fields). */
export type CredentialCheck =
  | { kind: 'pass'; credential: Credential }
  | {
      kind: 'refuse';
      status: 401 | 403 | 429;
      message: string;
      headers?: Record<string, string>;
    };

/** The refusal of a token the table does not hold (the same words as the single-token guard's). */
export const UNAUTHORIZED = 'Unauthorized: expected Authorization: Bearer <token>';

/** A name as a refusal shows it: quoted, and cut to 80 characters (a name is at most 200). */
const shown = (name: string): string => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);

/** The address a request comes from, as the limit counts it. */
export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * Checks the token `presented` by `req` against `table`: see the module's comment. `boardRoute`:
 * the request is for the board (any path but /mcp and /healthz).
 */
export function checkCredential(
  req: IncomingMessage,
  presented: string,
  boardRoute: boolean,
  table: AgentTable,
  limiter: FailureLimiter,
): CredentialCheck {
  const address = clientAddress(req);
  const wait = limiter.retryAfter(address);
  if (wait !== undefined) {
    return {
      kind: 'refuse',
      status: 429,
      message: `Too many requests: too many refused tokens from this address within a minute; try again in ${wait} s`,
      headers: { 'retry-after': String(wait) },
    };
  }
  const credential = table.identify(presented);
  if (!credential) {
    limiter.fail(address);
    return { kind: 'refuse', status: 401, message: UNAUTHORIZED, headers: { 'www-authenticate': 'Bearer' } };
  }
  if (boardRoute) {
    if (credential.board) return { kind: 'pass', credential };
    return {
      kind: 'refuse',
      status: 403,
      message: `Forbidden: the token of ${shown(credential.name)} may not open the board (board = true in the agents table allows it)`,
    };
  }
  const named = req.headers[AGENT_HEADER];
  const header = Array.isArray(named) ? named[0] : named;
  if (header !== undefined) {
    const read = agentFromHeader(header);
    const name = 'agent' in read ? read.agent : undefined;
    if (name !== credential.name) {
      const received = name === undefined ? 'a name that is not one' : shown(name);
      return {
        kind: 'refuse',
        status: 403,
        message: `Forbidden: this token is ${shown(credential.name)}'s; ${AGENT_HEADER} may only repeat that name, received ${received}`,
      };
    }
  }
  return { kind: 'pass', credential };
}

/**
 * Why `credential` may not use list `listId`, or undefined when it may (no `lists` in its entry:
 * every list). `listId` undefined: a 2025-era session naming no list, which gets a list of its
 * own, none of an agent's `lists`.
 */
export function listRefusal(credential: Credential, listId: string | undefined): string | undefined {
  if (credential.lists === undefined) return undefined;
  if (listId === undefined) {
    return `Forbidden: ${shown(credential.name)} may use only some lists: expected ${LIST_HEADER} naming one of them, received none`;
  }
  if (AgentTable.mayUseList(credential, listId)) return undefined;
  const lists = (credential.lists ?? []).map(shown).join(', ');
  return `Forbidden: ${shown(credential.name)} may not use list ${shown(listId)} (the agents table gives it ${lists})`;
}
