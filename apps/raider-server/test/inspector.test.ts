// A real client nobody here wrote: the MCP Inspector's CLI, against the built server over stdio.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers.js';

const run = promisify(execFile);
const INSPECTOR = fileURLToPath(new URL('../node_modules/.bin/mcp-inspector', import.meta.url));

async function inspector(args: string[]) {
  const { stdout } = await run(INSPECTOR, ['--cli', process.execPath, CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
    timeout: 60_000,
  });
  // The inspector prints a notice before the JSON.
  return JSON.parse(stdout.slice(stdout.indexOf('{')));
}

describe('the MCP Inspector CLI', () => {
  it('lists the tools of the built server', async () => {
    const listed = await inspector(['--method', 'tools/list']);
    expect(listed.tools.map((t: { name: string }) => t.name)).toEqual([
      'task_create',
      'task_update',
      'task_list',
      'task_get',
      'ask_user',
    ]);
  });

  it('calls task_create', async () => {
    const result = await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'task_create',
      '--tool-arg',
      'subject=Hello',
      '--tool-arg',
      'description=from the inspector',
    ]);
    // What the model reads: the text alone (structured output is off by default).
    expect(result).toEqual({ content: [{ type: 'text', text: 'Task #1 created successfully: Hello' }] });
  });
});
