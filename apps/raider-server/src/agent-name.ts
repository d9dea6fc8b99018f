/**
 * Who an agent is (issue 27): a name, the `owner` it uses on tasks. It comes from `--agent` /
 * `RAIDER_AGENT`, over HTTP also from the `X-Raider-Agent` header, and without either it is the
 * conversation's own id. A name follows the rules of a list id (`listFolderName`: no path
 * separators, NUL, `.` or `..`, at most 200 characters, a folder name that fits), so no name can
 * play tricks with a path, and `*` is not a name: it is what `send_message` broadcasts with.
 * Here, not in the messages feature, because the command line, the HTTP headers and the board
 * check or use these names too, and none of them may import a feature.
 */
import { ListIdError, listFolderName } from '@raider/file-store';
import { received } from '@raider/kit/received';

/** What `send_message` takes in `to` for every other agent of the list. */
export const EVERYONE = '*';

/**
 * The inbox that holds a list's roster (features/messages/roster.ts), which the board watches too:
 * a name no agent can have, since it holds a `/`.
 */
export const ROSTER_INBOX = 'raider/agents';

/**
 * Why `name` is not an agent's name (one line: what was expected, what was received), or
 * undefined when it is one.
 *
 * @example agentNameProblem('alice') // undefined
 * @example agentNameProblem('../x')  // 'expected an agent name without …, received "../x"'
 */
export function agentNameProblem(name: unknown): string | undefined {
  const shown = received(name);
  if (typeof name !== 'string') return `expected an agent name (a string), received ${shown}`;
  if (name === EVERYONE) {
    return `expected an agent name, received "${EVERYONE}" (it stands for every other agent of the list, in send_message's to)`;
  }
  try {
    listFolderName(name);
  } catch (error) {
    if (!(error instanceof ListIdError)) throw error;
    return `expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received ${shown}`;
  }
  return undefined;
}
