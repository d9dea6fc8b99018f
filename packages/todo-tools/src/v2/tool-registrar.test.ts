// The v2 adapter: what a v2 server is given, what fits as one, and where the protocol of the two
// SDK majors differs for these tools (the README lists the same).
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer, ProtocolError } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { closeClients, SDK_MAJORS } from '../testing/sdk-majors.js';
import { TaskTools, TodoTool, type ToolRegistrar } from './index.js';

const [V1, V2] = SDK_MAJORS as [(typeof SDK_MAJORS)[number], (typeof SDK_MAJORS)[number]];

afterEach(closeClients);

/** Every tool of the package (structured output and alwaysLoad on) as a client of `sdk`'s major lists it. */
async function everyTool(sdk: (typeof SDK_MAJORS)[number]) {
  const server = sdk.newServer('all');
  const tasks = new sdk.TaskTools({ structuredOutput: true, alwaysLoad: true });
  tasks.register(server);
  tasks.registerClaim(server);
  new sdk.TodoWriteTool({ structuredOutput: true, alwaysLoad: true }).register(server);
  new sdk.TodoTool({ structuredOutput: true, alwaysLoad: true }).register(server);
  return (await (await sdk.connect(server)).listTools()).tools;
}

describe('the v2 adapter', () => {
  it('a plain object with registerTool is a server to the register methods: a wrapper needs no cast', async () => {
    const server = new McpServer({ name: 'mine', version: '1.0.0' });
    const renamed: ToolRegistrar = {
      registerTool: (name, config, handler) => server.registerTool(`raider_${name}`, config, handler),
    };
    new TaskTools().register(renamed);
    new TodoTool().register(renamed);
    const client = await V2.connect(server as never);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'raider_task_create',
      'raider_task_update',
      'raider_task_list',
      'raider_task_get',
      'raider_todo',
    ]);
    expect(await client.callTool({ name: 'raider_todo', arguments: { action: 'list' } })).toEqual({
      content: [{ type: 'text', text: 'No tasks' }],
    });
  });

  it('hands each handler the call signal (ctx.mcpReq.signal)', async () => {
    const todos = new TaskTools({
      beforeTask: (event) => (event === 'TaskCompleted' ? new Promise<undefined>(() => {}) : undefined),
    });
    await todos.createTask({ subject: 'A', description: '' });
    let update:
      | ((args: Record<string, unknown>, ctx: { mcpReq: { signal: AbortSignal } }) => Promise<unknown>)
      | undefined;
    todos.register({
      registerTool: (name, _config, handler) => {
        if (name === 'task_update') update = handler;
      },
    });
    const controller = new AbortController();
    const answer = update?.({ taskId: '1', status: 'completed' }, { mcpReq: { signal: controller.signal } });
    controller.abort();
    expect(await answer).toEqual({
      content: [{ type: 'text', text: 'Interrupted: the task was not changed.' }],
      isError: true,
    });
  });

  it('hands each handler the caller the host authenticated (ctx.http.authInfo.clientId)', async () => {
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

  it('takes no v1 server (checked by the type checker)', () => {
    const refuse = (todos: TaskTools) => {
      // @ts-expect-error A v1 McpServer is not a v2 registrar: it takes zod schemas, and its handlers get `extra`.
      todos.register(new McpServerV1({ name: 'v1', version: '1.0.0' }));
    };
    expect(typeof refuse).toBe('function');
  });
});

describe('where SDK v2 differs from v1 for these tools', () => {
  it('tools/list: the same tools and JSON Schemas, labelled 2020-12 rather than draft-07, and no execution.taskSupport', async () => {
    const [v1, v2] = [await everyTool(V1), await everyTool(V2)];
    const v1Schema = 'http://json-schema.org/draft-07/schema#';
    const v2Schema = 'https://json-schema.org/draft/2020-12/schema';
    for (const tool of v1) {
      expect(tool.execution).toEqual({ taskSupport: 'forbidden' });
      expect([tool.inputSchema.$schema, tool.outputSchema?.$schema]).toEqual([v1Schema, v1Schema]);
    }
    for (const tool of v2) {
      expect(tool.execution).toBeUndefined();
      expect([tool.inputSchema.$schema, tool.outputSchema?.$schema]).toEqual([v2Schema, v2Schema]);
    }
    const relabelled = v1.map(({ execution: _, ...tool }) =>
      JSON.parse(JSON.stringify(tool).replaceAll(JSON.stringify(v1Schema), JSON.stringify(v2Schema))),
    );
    // Byte for byte, once relabelled: the same keys in the same order.
    expect(JSON.stringify(v2)).toBe(JSON.stringify(relabelled));
  });

  it('an unknown tool: an error result under v1 (`MCP error -32602: …`), a JSON-RPC error under v2', async () => {
    const v1 = await V1.connect(new V1.TaskTools().server);
    expect(await v1.callTool({ name: 'task_remove', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'MCP error -32602: Tool task_remove not found' }],
      isError: true,
    });
    const v2 = await V2.connect(new V2.TaskTools().server);
    const refused = await v2.callTool({ name: 'task_remove', arguments: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: -32602, message: 'Tool task_remove not found' });
  });
});
