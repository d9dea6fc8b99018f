// Protocol-level answers of a conversation, in-process over InMemoryTransport: malformed tools/call
// requests and unknown resources answer the specification's codes with one readable line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { guardToolCalls, toolCallProblem } from '../transport/transport-tap.js';
import { type Conversation, createConversation } from './conversation.js';

const open: { client: Client; conversation: Conversation }[] = [];
afterEach(async () => {
  for (const { client, conversation } of open.splice(0)) {
    await client.close();
    await conversation.close('test over');
  }
});

async function connected() {
  const conversation = createConversation({ family: 'tasks', names: 'raider', askTimeoutMs: 1000 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await conversation.newServer('legacy').connect(guardToolCalls(serverSide));
  const client = new Client({ name: 'protocol', version: '1.0.0' });
  await client.connect(clientSide);
  open.push({ client, conversation });
  return client;
}

/** The JSON-RPC error a raw request gets. */
async function errorOf(client: Client, method: string, params?: unknown): Promise<McpError> {
  const request = (params === undefined ? { method } : { method, params }) as never;
  const error = await client.request(request, CallToolResultSchema).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('malformed tools/call', () => {
  it.each([
    [
      'arguments that are an array',
      { name: 'task_list', arguments: [1, 2] },
      'tools/call: params.arguments: expected an object of named arguments, received an array of 2 items',
    ],
    [
      'arguments that are a string',
      { name: 'task_list', arguments: 'all' },
      'tools/call: params.arguments: expected an object of named arguments, received a string',
    ],
    ['no params', undefined, 'tools/call: expected params { name, arguments? } (an object), received nothing'],
    [
      'a name that is not a string',
      { name: 5 },
      'tools/call: params.name: expected the name of a tool (a string), received a number',
    ],
  ])('%s: -32602 with one readable line', async (_what, params, message) => {
    const client = await connected();
    const error = await errorOf(client, 'tools/call', params);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(`MCP error -32602: ${message}`);
    expect(error.message).not.toContain('\n');
    // The server goes on answering.
    const list = await client.callTool({ name: 'task_list', arguments: {} });
    expect(list.isError).toBeFalsy();
  });

  it('a well-formed call passes the guard untouched', () => {
    expect(toolCallProblem({ name: 'task_list' })).toBeUndefined();
    expect(toolCallProblem({ name: 'task_list', arguments: {} })).toBeUndefined();
  });

  it('a huge value is never echoed', () => {
    expect(toolCallProblem({ name: 'x'.repeat(1_000_000).length })?.length).toBeLessThan(120);
    expect(toolCallProblem({ name: 't', arguments: 'x'.repeat(1_000_000) })?.length).toBeLessThan(120);
  });
});

describe('resources', () => {
  // SDK v2 sends resource-not-found as -32602 with data { uri } in both eras (2026-07-28's MUST;
  // the v1 server sent -32002, which clients are to accept too).
  it('an unknown URI is resource-not-found (-32602 with data.uri) with one MCP error prefix', async () => {
    const client = await connected();
    const error = await client.readResource({ uri: 'raider://nope' }).catch((e: unknown) => e as McpError);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).data).toEqual({ uri: 'raider://nope' });
    expect((error as McpError).message).toBe(
      'MCP error -32602: Resource not found: raider://nope; expected raider://tasks or raider://work',
    );
    const read = await client.readResource({ uri: 'raider://tasks' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({ family: 'tasks', tasks: [] });
  });

  it('a subscription to an unknown URI is refused; a known one is taken', async () => {
    const client = await connected();
    const error = await client.subscribeResource({ uri: 'raider://nope' }).catch((e: unknown) => e as McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).data).toEqual({ uri: 'raider://nope' });
    await expect(client.subscribeResource({ uri: 'raider://tasks' })).resolves.toEqual({});
  });
});
