/**
 * The command line of raider-server: the flag table (options/flag-table.ts), how it is read
 * (options/read-options.ts, options/checks.ts, options/values.ts) and printed (options/help.ts).
 */
export { FLAGS, type Flag } from './options/flag-table.js';
export { helpText } from './options/help.js';
export { readOptions } from './options/read-options.js';
export type { ServerOptions } from './options/server-options.js';
export { defaultMaxConnections, isLoopback } from './options/values.js';
