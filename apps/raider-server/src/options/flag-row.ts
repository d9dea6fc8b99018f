/** What one row of the command line's table (flag-table.ts) holds. */
import type { TaskListLimits } from '@raider/todo-tools/v2';
import type { ServerOptions } from './server-options.js';

/** The setting a flag fills: a field of ServerOptions, or one list limit (`limits.maxTasks`). */
export type OptionKey = keyof ServerOptions | `limits.${keyof TaskListLimits}`;

/** Makes a setting of the text given (or the default), naming `name` (flag or variable) when it is wrong. */
export type FlagParser = (text: string, name: string) => unknown;

/** One row of the table. */
export interface Flag {
  readonly flag: string;
  /** Its environment variable twin ('' for none: --help and --version). */
  readonly env: string;
  readonly type: 'string' | 'boolean';
  /** What the value looks like in --help (string flags). */
  readonly value?: string;
  /** Its line in --help (the variable is added after it). */
  readonly help: string;
  /** The setting it fills. */
  readonly key: OptionKey;
  /**
   * The text taken when neither the flag nor its variable gives one (a boolean's variable reads
   * '0' unless said); without one, the setting is undefined (or, for a limit, absent).
   */
  readonly default?: string | ((env: NodeJS.ProcessEnv) => string);
  /** How the text becomes the setting: without one, a string flag's setting is its text. */
  readonly parse?: FlagParser;
  /** The flag it sets something of: given (as a flag) without that one, it is refused. */
  readonly needs?: '--http' | '--database-url';
  /** A boolean whose flag turns its setting off (`--no-board-app` clears `boardApp`). */
  readonly turnsOff?: true;
}
