#!/usr/bin/env node
/**
 * raider-server: the command. stdio by default, Streamable HTTP with --http. SIGINT and SIGTERM
 * stop accepting, end open questions, close sessions and exit 0 within 5 seconds.
 */
import { mkdirSync } from 'node:fs';
import { OptionsError } from './errors.js';
import { createLogger } from './log.js';
import { helpText, readOptions, type ServerOptions } from './options.js';
import { SHUTDOWN_LIMIT_MS } from './shutdown.js';
import { VERSION } from './version.js';

async function main(): Promise<void> {
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
    return;
  }
  if (options.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const log = createLogger(options.logLevel);
  if (options.dataDir) {
    try {
      mkdirSync(options.dataDir, { recursive: true });
    } catch (error) {
      process.stderr.write(
        `raider-server: --data-dir ${options.dataDir}: cannot be created (${(error as NodeJS.ErrnoException).code})\n`,
      );
      process.exit(2);
    }
  }
  let close: () => Promise<void>;
  // Each transport's code is loaded only when it serves (the HTTP side brings the Node adapter, the
  // board and the sessions): a v2 client spawns a stdio process just to probe the era, and every
  // start pays for what it imports before its first answer.
  if (options.http) {
    const { startHttp } = await import('./http/server.js');
    const server = await startHttp(options, log).catch((error: Error) => {
      log.error(`cannot listen on ${options.host}:${options.port}: ${error.message}`);
      process.exit(1);
    });
    log.info(`listening on ${server.url} (family ${options.family}, names ${options.names})`);
    if (server.boardUrl) {
      // A secret of this run is shown (open this URL once; the page keeps it in a cookie); a
      // token the user chose is not repeated into logs.
      const shown = options.token ? server.boardUrl.replace(/\?token=.*$/, '?token=<your token>') : server.boardUrl;
      log.info(`the board: ${shown}`);
    }
    close = () => server.close();
  } else {
    const { startStdio } = await import('./stdio.js');
    const server = await startStdio(options, log);
    log.info(`serving over stdio (family ${options.family}, names ${options.names})`);
    close = () => server.close();
    void server.closed.then((end) => {
      if (!end.failed) return shutdown(end.reason);
      log.error(end.reason);
      process.exit(1);
    });
  }

  let stopping = false;
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`shutting down: ${why}`);
    // Whatever happens, the process is gone within the limit.
    setTimeout(() => process.exit(0), SHUTDOWN_LIMIT_MS - 500).unref();
    try {
      await close();
    } catch (error) {
      log.warn(`while closing: ${(error as Error).message}`);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: Error) => {
  process.stderr.write(`raider-server: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
