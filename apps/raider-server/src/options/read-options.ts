/**
 * The command line of raider-server, read row by row of the flag table: every flag has an
 * environment variable twin; a flag beats its variable. A bad flag or value is an OptionsError (the
 * CLI prints it and exits 2).
 */
import { parseArgs } from 'node:util';
import type { TaskListLimits } from '@raider/todo-tools/v2';
import { OptionsError } from '../errors.js';
import { checkDatabase, checkNoDatabaseFlags, checkTogether, type FlagValues, useClaudeTasks } from './checks.js';
import { FLAGS, type Flag } from './flag-table.js';
import { nearestFlags } from './nearest-flag.js';
import type { ServerOptions } from './server-options.js';
import { bool, defaultMaxConnections } from './values.js';

/** Settings no flag sets. */
const FIXED = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 } as const;

function parseFlags(argv: readonly string[]): FlagValues {
  try {
    const parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(FLAGS.map((f) => [f.flag, { type: f.type }])),
    });
    return parsed.values as FlagValues;
  } catch (error) {
    throw new OptionsError(unknownFlagLine(error) ?? (error as Error).message);
  }
}

/**
 * parseArgs' refusal of a flag it does not know, as one line naming the nearest known flags:
 * `unknown flag --databse-url: did you mean --database-url?`; undefined for any other refusal.
 */
function unknownFlagLine(error: unknown): string | undefined {
  if ((error as { code?: unknown }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  const given = /'([^']*)'/.exec((error as Error).message)?.[1];
  if (given === undefined) return undefined;
  const nearest = nearestFlags(
    given,
    FLAGS.map((f) => f.flag),
  ).map((flag) => `--${flag}`);
  if (!nearest.length) return `unknown flag ${given}`;
  const named = nearest.length === 1 ? nearest[0] : `${nearest.slice(0, -1).join(', ')} or ${nearest.at(-1)}`;
  return `unknown flag ${given}: did you mean ${named}?`;
}

/** The setting of one row: its flag, else its variable, else its default, through its parser. */
function readRow(row: Flag, values: FlagValues, env: NodeJS.ProcessEnv): unknown {
  const given = values[row.flag] !== undefined;
  const fallback = typeof row.default === 'function' ? row.default(env) : row.default;
  if (row.type === 'boolean') {
    if (given) return row.turnsOff !== true;
    // A boolean's variable is read as it is (an empty one is off).
    return row.env ? bool(row.env, env[row.env] ?? fallback ?? '0') : false;
  }
  // The flag, else its variable (an empty variable counts as unset).
  const fromEnv = row.env ? env[row.env] : undefined;
  const text = given ? String(values[row.flag]) : fromEnv === undefined || fromEnv === '' ? fallback : fromEnv;
  if (text === undefined) return undefined;
  const name = given || !row.env ? `--${row.flag}` : row.env;
  return row.parse ? row.parse(text, name) : text;
}

/**
 * Reads the settings from `argv` (without node and the script) and `env`.
 * @throws OptionsError for a flag or value that is wrong.
 */
export function readOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ServerOptions {
  const values = parseFlags(argv);
  const settings: Record<string, unknown> = { ...FIXED, maxConnections: defaultMaxConnections() };
  const limits: Partial<Record<keyof TaskListLimits, unknown>> = {};
  for (const row of FLAGS) {
    const setting = readRow(row, values, env);
    if (!row.key.startsWith('limits.')) settings[row.key] = setting;
    else if (setting !== undefined) limits[row.key.slice('limits.'.length) as keyof TaskListLimits] = setting;
  }
  const options = { ...settings, limits } as unknown as ServerOptions;
  // The flag given, else its variable when that is what was read: what an error names.
  const name = (flag: string) => {
    const row = FLAGS.find((f) => f.flag === flag) as Flag;
    return values[flag] !== undefined || !row.env ? `--${flag}` : row.env;
  };
  if (options.databaseUrl !== undefined) checkDatabase(options, name);
  else checkNoDatabaseFlags(values);
  if (options.claudeTasks) useClaudeTasks(options, env, name);
  checkTogether(options, values, name);
  return options;
}
