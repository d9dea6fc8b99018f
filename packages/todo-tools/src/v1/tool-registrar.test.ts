// The v1 adapter: what a v1 server is given, and what fits as one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { TaskTools, TodoTool, TodoWriteTool, type ToolRegistrar } from '../index.js';

async function listed(server: McpServer) {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe('the v1 adapter', () => {
  it('tools/list shows each definition: its JSON Schemas, annotations and _meta', async () => {
    const tasks = new TaskTools({ structuredOutput: true, alwaysLoad: true });
    const todoWrite = new TodoWriteTool({ structuredOutput: true, alwaysLoad: true });
    const todo = new TodoTool({ structuredOutput: true, alwaysLoad: true });
    const server = new McpServer({ name: 'all', version: '1.0.0' });
    tasks.register(server);
    tasks.registerClaim(server);
    todoWrite.register(server);
    todo.register(server);
    const definitions = [
      ...tasks.definitions(),
      ...tasks.claimDefinitions(),
      ...todoWrite.definitions(),
      ...todo.definitions(),
    ];
    const tools = await listed(server);
    expect(tools.map((tool) => tool.name)).toEqual(definitions.map((tool) => tool.name));
    for (const [index, tool] of tools.entries()) {
      const definition = definitions[index];
      // Equal, not byte for byte: the client's parse of tools/list puts the keys it knows first.
      expect(tool.inputSchema).toEqual(definition?.inputJsonSchema);
      expect(tool.outputSchema).toEqual(definition?.outputJsonSchema);
      expect(tool).toMatchObject({
        title: definition?.title,
        description: definition?.description,
        annotations: definition?.annotations,
        _meta: { 'anthropic/alwaysLoad': true },
      });
    }
  });

  it('a plain object with registerTool is a server to the register methods: a wrapper needs no cast', async () => {
    const server = new McpServer({ name: 'mine', version: '1.0.0' });
    const renamed: ToolRegistrar = {
      registerTool: (name, config, handler) => server.registerTool(`raider_${name}`, config, handler),
    };
    const todos = new TaskTools();
    todos.register(renamed);
    new TodoTool().register(renamed);
    expect((await listed(server)).map((tool) => tool.name)).toEqual([
      'raider_task_create',
      'raider_task_update',
      'raider_task_list',
      'raider_task_get',
      'raider_todo',
    ]);
  });

  it('hands each handler the call signal', async () => {
    const todos = new TaskTools({
      beforeTask: (event) => (event === 'TaskCompleted' ? new Promise<undefined>(() => {}) : undefined),
    });
    await todos.createTask({ subject: 'A', description: '' });
    let update: ((args: Record<string, unknown>, extra: { signal: AbortSignal }) => Promise<unknown>) | undefined;
    todos.register({
      registerTool: (name, _config, handler) => {
        if (name === 'task_update') update = handler;
      },
    });
    const controller = new AbortController();
    const answer = update?.({ taskId: '1', status: 'completed' }, { signal: controller.signal });
    controller.abort();
    expect(await answer).toEqual({
      content: [{ type: 'text', text: 'Interrupted: the task was not changed.' }],
      isError: true,
    });
  });

  it('hands each handler the caller the host authenticated (extra.authInfo.clientId)', async () => {
    const tasks = new TaskTools();
    await tasks.createTask({ subject: 'Parse', description: '' });
    const server = new McpServer({ name: 'authenticated', version: '1.0.0' });
    tasks.registerClaim(server);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // What an authenticating transport does: every message the server gets carries the AuthInfo.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) =>
      send(message, { ...options, authInfo: { token: 'secret', clientId: 'bob', scopes: [] } });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    expect(await client.callTool({ name: 'task_claim', arguments: { owner: 'mallory' } })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Error: owner: expected "bob" (task_claim claims for the agent this call is authenticated as), received "mallory"',
        },
      ],
      isError: true,
    });
    expect((await client.callTool({ name: 'task_claim', arguments: { owner: 'bob' } })).content).toEqual([
      { type: 'text', text: 'Claimed task #1: Parse' },
    ]);
    await client.close();
  });

  it('takes no v2 server (checked by the type checker)', () => {
    const refuse = (todos: TaskTools) => {
      // @ts-expect-error A v2 McpServer is not a v1 registrar: its handlers get a `ctx`, not `extra`.
      todos.register(new McpServerV2({ name: 'v2', version: '1.0.0' }));
    };
    expect(typeof refuse).toBe('function');
  });
});
