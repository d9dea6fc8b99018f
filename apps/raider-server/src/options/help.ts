/** The text of --help: one line per row of the flag table, with its variable. */
import { FLAGS } from './flag-table.js';

/** The text of --help. */
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
    'RAIDER_ENABLE_TASKS=0 mounts todo_write instead of the task tools (as Claude Code does).',
  ].join('\n');
}
