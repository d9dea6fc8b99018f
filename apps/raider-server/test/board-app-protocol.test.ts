// The board app as MCP clients see it over real transports, without a browser: what a client that
// announces MCP Apps is sent right after initialize, and how the app-only tools answer.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, UI_EXTENSION } from '../src/features/board-app/board-app.js';
import { CLI, textOf } from './helpers.js';

const APPS = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
});

/**
 * Starts the built server over stdio and connects a client announcing `capabilities`, counting
 * the list_changed notifications it receives from the first byte on.
 */
async function stdioCounting(capabilities: Record<string, unknown>, args: string[] = []) {
  const counts = { tools: 0, resources: 0 };
  const client = new Client({ name: 'apps-host', version: '1.0.0' }, { capabilities });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    counts.tools += 1;
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    counts.resources += 1;
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...args],
      env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return { client, counts };
}

describe('a client that announces MCP Apps', () => {
  it.each([
    { args: [], list: 'task_list' },
    { args: ['--family', 'todo'], list: 'todo' },
    { args: ['--names', 'claude'], list: 'TaskList' },
  ])(
    '$args: at most one tools/list_changed after initialize, and the first tools/list has the board app',
    async ({ args, list }) => {
      const { client, counts } = await stdioCounting(APPS, args);
      // stdio keeps order: whatever the server sent on notifications/initialized is in before these answers.
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      await client.ping();
      expect(tools).toEqual(expect.arrayContaining([list, 'board_state', 'board_set_status', 'board_answer']));
      expect(counts.tools).toBeLessThanOrEqual(1);
      expect(counts.resources).toBeLessThanOrEqual(1);
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toContain('ui://raider/board');
    },
  );

  it('a client without the extension gets no list_changed at all', async () => {
    const { client, counts } = await stdioCounting({});
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    await client.ping();
    expect(tools).not.toContain('board_state');
    expect(counts).toEqual({ tools: 0, resources: 0 });
  });
});

describe('board_set_status (app-only)', () => {
  it("an unknown task is an error that says what was expected; task_update keeps Claude Code's plain answer", async () => {
    const { client } = await stdioCounting(APPS);
    await client.callTool({ name: 'task_create', arguments: { subject: 'Only one', description: '' } });
    const unknown = await client.callTool({
      name: 'board_set_status',
      arguments: { taskId: '99', status: 'completed' },
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('Error: taskId: expected the id of a task on the list, received "99" (no task #99)');
    // The model's tool answers as Claude Code does: not an error.
    const modelFacing = await client.callTool({
      name: 'task_update',
      arguments: { taskId: '99', status: 'completed' },
    });
    expect(modelFacing.isError).toBeFalsy();
    expect(textOf(modelFacing)).toBe('Task not found');
    // A known task still changes.
    const known = await client.callTool({ name: 'board_set_status', arguments: { taskId: '1', status: 'completed' } });
    expect(known.isError).toBeFalsy();
    expect(textOf(await client.callTool({ name: 'task_get', arguments: { taskId: '1' } }))).toContain(
      'Status: completed',
    );
  });

  it('the todo family refuses an unknown task as an error too', async () => {
    const { client } = await stdioCounting(APPS, ['--family', 'todo']);
    const unknown = await client.callTool({
      name: 'board_set_status',
      arguments: { taskId: '7', status: 'completed' },
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/#7 not found/);
  });
});
