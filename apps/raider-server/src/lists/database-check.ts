/**
 * The database looked at once at start (`--database-url`): a server whose database cannot be
 * reached (nothing listening, an unknown host, a refused password, a missing database) says so in
 * one line and exits 1 before any client connects, instead of failing every call later; with
 * `--wait-for-database` it says it waits, and tries again with a growing pause until the database
 * answers. No line ever holds the URL's password.
 */
import { connect } from 'node:net';
import type { Logger } from '../log.js';

/** How long one look waits for a TCP connection, in ms, before it says the database does not answer. */
const CONNECT_WAIT_MS = 5000;

/** The pauses between two looks while waiting, in ms: doubling from 1 s, at most 30 s. */
const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 30_000;

/** The list id the look reads (nothing is written: a read of a list that does not exist finds nothing). */
const LOOK_LIST = 'raider-server-start-check';

/** Where the database is, without its password: `PostgreSQL at db:5432/raider`. */
export function databaseTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL at ${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** What a connection error's code means, in words. */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there (connection refused)',
  ENOTFOUND: 'the host is not known (ENOTFOUND)',
  EAI_AGAIN: 'the host could not be looked up (EAI_AGAIN)',
  EHOSTUNREACH: 'the host cannot be reached (EHOSTUNREACH)',
  ENETUNREACH: 'the network cannot be reached (ENETUNREACH)',
  ETIMEDOUT: 'it does not answer (ETIMEDOUT)',
  ECONNRESET: 'it closed the connection (ECONNRESET)',
};

/**
 * `text` without the URL's password, in case a message quoted it: any URL's credentials
 * (`//user:***@`), and the password itself when it is long enough (12 characters) not to be a
 * word of the message too (a password `raider` must not garble `database "raider" does not exist`).
 */
export function withoutPassword(text: string, url: string): string {
  let shown = text.replace(/(\/\/[^\s/:@]*:)[^\s@/]*@/g, '$1***@');
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    return shown;
  }
  for (const secret of new Set([password, safeDecode(password)])) {
    if (secret.length >= 12) shown = shown.split(secret).join('***');
  }
  return shown;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Why a TCP connection to the database's host and port fails, or undefined when one is made (or
 * the URL names a socket folder, which the store's look covers).
 */
function networkProblem(url: string): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.resolve(undefined);
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '' || parsed.searchParams.has('host')) return Promise.resolve(undefined);
  const port = Number(parsed.port || 5432);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(CONNECT_WAIT_MS);
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`no connection to ${host}:${port} within ${CONNECT_WAIT_MS / 1000} s`);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      resolve(NETWORK_WORDS[error.code ?? ''] ?? error.message);
    });
  });
}

/** Why the store's look failed, in one line: PostgreSQL's own words (a refused password, no such database). */
function storeProblem(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_WORDS[code]) return NETWORK_WORDS[code];
  const text = cause instanceof Error ? cause.message : String(cause);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

/**
 * Looks at the database once: a TCP connection to its host (an unreachable one is told at once,
 * not after the store's retries), then one read through the store (which makes the schema, as the
 * first call would). Undefined when it answers, else why not, in one line without the password.
 */
export async function databaseProblem(url: string): Promise<string | undefined> {
  const network = await networkProblem(url);
  if (network) return withoutPassword(network, url);
  const { openPostgresLists } = await import('@raider/postgres-store');
  // A pool of its own, closed after the look: the server's lists open theirs with its settings.
  const lists = openPostgresLists({ connectionString: url, maxConnections: 1 });
  try {
    await lists.list(LOOK_LIST).todo.load();
    return undefined;
  } catch (error) {
    return withoutPassword(storeProblem(error), url);
  } finally {
    await lists.close().catch(() => {});
  }
}

/**
 * The database at start: undefined once it answers; else, without `wait`, the line to exit with
 * (`--database-url: PostgreSQL at db:5432/raider cannot be reached: …`). With `wait`
 * (`--wait-for-database`) it logs that it waits, looks again after 1 s, 2 s, 4 s, … (at most
 * 30 s apart), logs a new reason when the reason changes, and resolves once the database answers.
 */
export async function reachDatabase(url: string, log: Logger, wait: boolean): Promise<string | undefined> {
  const target = databaseTarget(url);
  let problem = await databaseProblem(url);
  if (problem === undefined) return undefined;
  if (!wait) {
    return `--database-url: ${target} cannot be reached: ${problem}; start it or fix the URL, or give --wait-for-database to wait for it`;
  }
  const began = Date.now();
  log.warn(
    `${target} cannot be reached: ${problem}; waiting for it (--wait-for-database), looking again after 1 s, then less and less often (at most every 30 s)`,
  );
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    const now = await databaseProblem(url);
    if (now === undefined) break;
    if (now !== problem) log.warn(`${target} still cannot be reached: ${now}; waiting for it`);
    else log.debug(`${target} still cannot be reached: ${now}`);
    problem = now;
  }
  log.info(`${target} answers after ${((Date.now() - began) / 1000).toFixed(1)} s of waiting; serving`);
  return undefined;
}
