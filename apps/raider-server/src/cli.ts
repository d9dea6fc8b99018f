#!/usr/bin/env node
/**
 * raider-server: the command. stdio by default, Streamable HTTP with --http. A bad flag or value
 * exits 2; a place for lists that cannot serve (a data dir that is a file, a database that cannot
 * be reached, unless --wait-for-database) or a port that cannot be bound exits 1, each in one line
 * that says what to do. SIGINT and SIGTERM stop accepting, end open questions, close sessions and
 * exit 0 within 5 seconds.
 */
import { OptionsError } from './errors.js';
import { createLogger, type Logger } from './log.js';
import { helpText, readOptions, type ServerOptions } from './options.js';
import { SHUTDOWN_LIMIT_MS } from './shutdown.js';
import { VERSION } from './version.js';

/** The settings of the command line; undefined when it was answered (--help, --version). Exits 2 on a bad one. */
function commandLine(): ServerOptions | undefined {
  let options: ServerOptions;
  try {
    options = readOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof OptionsError) {
      process.stderr.write(`raider-server: ${error.message}\nTry raider-server --help.\n`);
      process.exit(2);
    }
    throw error;
  }
  if (options.help) {
    process.stdout.write(`${helpText()}\n`);
    return undefined;
  }
  if (options.version) {
    process.stdout.write(`${VERSION}\n`);
    return undefined;
  }
  return options;
}

/** Says why the server cannot start, in one line, and exits 1. */
function cannotStart(log: Logger, line: string): never {
  log.error(line);
  process.exit(1);
}

/**
 * The place for lists, made ready before any client connects: the data dir made (or refused when
 * it cannot hold the lists), the database looked at (or waited for, with --wait-for-database).
 */
async function preparePlace(options: ServerOptions, log: Logger): Promise<void> {
  // Each is loaded only when it is needed (a v2 client may spawn a process only to probe the era).
  if (options.dataDir) {
    const { dataDirProblem } = await import('./lists/data-dir.js');
    const problem = dataDirProblem(options.dataDir, options.claudeTasks ? "Claude Code's task folder" : '--data-dir');
    if (problem) cannotStart(log, problem);
  }
  if (options.databaseUrl) {
    const { reachDatabase } = await import('./lists/database-check.js');
    const problem = await reachDatabase(options.databaseUrl, log, options.waitForDatabase === true);
    if (problem) cannotStart(log, problem);
  }
}

/** Serves Streamable HTTP; resolves with its close once it listens. */
async function serveHttp(options: ServerOptions, log: Logger): Promise<() => Promise<void>> {
  const { startHttp } = await import('./http/server.js');
  const { listenProblem, listsLine } = await import('./http/start-lines.js');
  const { CredentialsStartError } = await import('./http/credentials.js');
  const server = await startHttp(options, log).catch((error: unknown) =>
    // A table of agents that cannot be read says why itself; anything else is the listen's.
    cannotStart(
      log,
      error instanceof CredentialsStartError ? error.message : listenProblem(error, options.host, options.port),
    ),
  );
  log.info(`listening on ${server.url} (family ${options.family}, names ${options.names})`);
  const lists = listsLine(options);
  if (lists) log.info(lists);
  if (server.boardUrl) {
    // A secret of this run is shown (open this URL once; the page keeps it in a cookie); a
    // token the user chose is not repeated into logs.
    const shown = options.token ? server.boardUrl.replace(/\?token=.*$/, '?token=<your token>') : server.boardUrl;
    // With a table of agents, a person signs in once with a board token of it.
    const signIn = options.agents === undefined ? '' : ` (sign in once: ${shown}?token=<a board token of --agents>)`;
    log.info(`the board: ${shown}${signIn}`);
  }
  return () => server.close();
}

/** Serves stdio; resolves with its close. The server ending by itself shuts down (exit 0), or exits 1 when it failed. */
async function serveStdio(
  options: ServerOptions,
  log: Logger,
  shutdown: (why: string) => Promise<void>,
): Promise<() => Promise<void>> {
  const { startStdio } = await import('./transport/stdio.js');
  const server = await startStdio(options, log);
  log.info(`serving over stdio (family ${options.family}, names ${options.names})`);
  void server.closed.then((end) => {
    if (!end.failed) return shutdown(end.reason);
    log.error(end.reason);
    process.exit(1);
  });
  return () => server.close();
}

/**
 * SIGINT and SIGTERM shut down from the start: before the server serves (waiting for the
 * database) they exit 0 at once; after, they close it first. `serving` hands over its close.
 */
function stopOnSignals(log: Logger) {
  let close: (() => Promise<void>) | undefined;
  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`shutting down: ${why}`);
    // Whatever happens, the process is gone within the limit.
    setTimeout(() => process.exit(0), SHUTDOWN_LIMIT_MS - 500).unref();
    try {
      await close?.();
    } catch (error) {
      log.warn(`while closing: ${(error as Error).message}`);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  return {
    shutdown,
    serving(serverClose: () => Promise<void>) {
      close = serverClose;
    },
  };
}

async function main(): Promise<void> {
  const options = commandLine();
  if (!options) return;
  const log = createLogger(options.logLevel);
  const signals = stopOnSignals(log);
  await preparePlace(options, log);
  // Each transport's code is loaded only when it serves (the HTTP side brings the Node adapter, the
  // board and the sessions): a v2 client spawns a stdio process just to probe the era, and every
  // start pays for what it imports before its first answer.
  signals.serving(options.http ? await serveHttp(options, log) : await serveStdio(options, log, signals.shutdown));
}

main().catch((error: Error) => {
  process.stderr.write(`raider-server: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
