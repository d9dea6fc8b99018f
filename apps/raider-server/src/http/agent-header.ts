/**
 * The `X-Raider-Agent` header: how an HTTP client names its agent (issue 27), read as
 * X-Raider-List is (list-header.ts: percent-decoded, raw bytes outside printable ASCII refused) and
 * checked as an agent name (the rules of a list id). 2025 era: read at initialize, for the
 * session; 2026 era: per request. The server's `--agent` beats it.
 */
import { agentNameProblem } from '../agent-name.js';
import { nameFromHeader } from './list-header.js';

/** The header a client names its agent with (ignored when the server has --agent). */
export const AGENT_HEADER = 'x-raider-agent';

const EXAMPLE = 'X-Raider-Agent: J%C3%BCrgen for "Jürgen"';

/**
 * The agent a header value names, or why it is refused (one line: what was expected, what was
 * received).
 *
 * @example
 * agentFromHeader('J%C3%BCrgen'); // { agent: 'Jürgen' }
 * agentFromHeader('..');          // { refused: 'expected an agent name without …, received ".."' }
 */
export function agentFromHeader(value: string): { agent: string } | { refused: string } {
  const read = nameFromHeader(value, 'an agent name', EXAMPLE);
  if ('refused' in read) return read;
  const problem = agentNameProblem(read.name);
  return problem ? { refused: problem } : { agent: read.name };
}
