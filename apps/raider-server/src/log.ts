/** A logger that writes to stderr only: over stdio, stdout carries the protocol and nothing else. */
import type { LogLevel } from './types.js';

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** Logs at or above a level, one line each, to stderr. */
export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** A logger for `level`; `write` defaults to process.stderr. */
export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const at =
    (wanted: LogLevel) =>
    (message: string): void => {
      if (RANK[wanted] <= RANK[level]) write(`raider-server ${wanted}: ${message}\n`);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** A logger that drops everything (embedded use, tests). */
export const silent: Logger = { error() {}, warn() {}, info() {}, debug() {} };
