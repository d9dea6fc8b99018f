/**
 * What the HTTP server says at start beyond its URL: why it could not listen (one line with what
 * to do), and, without --list, which list each era's clients work on.
 */
import { defaultListId } from '../lists/project-list.js';
import type { ServerOptions } from '../options.js';

/**
 * Why listening on `host`:`port` failed, in one line with what to do: a port in use suggests
 * `--port 0` (a free one) or another port.
 *
 * @example listenProblem({ code: 'EADDRINUSE' }, '127.0.0.1', 3333)
 * // 'cannot listen on 127.0.0.1:3333: the port is in use (another raider-server?); give --port 0 for a free one, or another --port'
 */
export function listenProblem(error: unknown, host: string, port: number): string {
  const where = `cannot listen on ${host}:${port}`;
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    return `${where}: the port is in use (another raider-server?); give --port 0 for a free one, or another --port`;
  }
  if (code === 'EACCES') {
    return `${where}: this user may not use that port (EACCES; ports below 1024 need privileges); give --port 0 for a free one, or a port above 1023`;
  }
  if (code === 'EADDRNOTAVAIL')
    return `${where}: ${host} is not an address of this machine (EADDRNOTAVAIL); check --host`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `${where}: the host ${host} is not known (${code}); check --host`;
  return `${where}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * The start-up line of an HTTP server without --list: which list each era's clients work on
 * (every 2026-era client shares the default list, as it has no session; each 2025-era session
 * gets its own) and how a client names another; undefined with --list (every client is on it).
 */
export function listsLine(
  options: Pick<ServerOptions, 'list'>,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (options.list !== undefined) return undefined;
  return `no --list: every 2026-era client shares the default list ${defaultListId(env)} (they have no session), while each 2025-era session gets a list of its own; a client names another list with the X-Raider-List header`;
}
