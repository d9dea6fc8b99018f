/** The text of --help: one line per row of the flag table, with its variable. */
import { FLAGS } from './flag-table.js';

/**
 * The HTTP headers a client may send, after the options: what each names, and the flag that
 * beats it; then where a client that names no list works.
 */
export const HEADER_LINES: readonly string[] = [
  'HTTP headers a client may send to /mcp (with --http; the flag named beats the header):',
  `${'  X-Raider-List: ID'.padEnd(40)}the list it works on (--list); percent-encoded UTF-8: team%20%CE%B2 names "team β"`,
  `${'  X-Raider-Agent: NAME'.padEnd(40)}who its agent is, its task owner name and inbox (--agent); percent-encoded too`,
  'Without --list or X-Raider-List, each 2025-era session gets a list of its own, and every 2026-era',
  "client shares the default list (it has no session): the project's, as over stdio.",
];

/** The text of --help: usage, one line per flag with its variable, the HTTP headers, RAIDER_ENABLE_TASKS. */
export function helpText(): string {
  const rows = FLAGS.map((f) => {
    const left = `  --${f.flag}${f.value ? ` ${f.value}` : ''}`;
    return `${left.padEnd(40)}${f.help}${f.env ? ` [${f.env}]` : ''}`;
  });
  return [
    'Usage: raider-server [options]',
    '',
    "An MCP server with Claude Code's task list, todo list and question tools.",
    'stdio by default; --http serves Streamable HTTP at /mcp (GET /healthz for health).',
    '',
    'Options (each with an environment variable twin; a flag beats its variable):',
    ...rows,
    '',
    ...HEADER_LINES,
    '',
    'RAIDER_ENABLE_TASKS=0 mounts todo_write instead of the task tools (as Claude Code does).',
  ].join('\n');
}
