// messageLine in-process: the pieces it gives for a message are JSON.stringify(message) + '\n'
// byte for byte, and the bytes of a big todo list sent again are made once, not per answer. And
// the transport's reading: a line that nests too deep is answered by the transport itself.
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TodoTool } from '@raider/todo-tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageLine, RaiderStdioTransport } from './stdio-transport.js';
import { tapTransport } from './transport-tap.js';

/** What the SDK's stdio transport writes for `message`. */
const sdkLine = (message: unknown) => Buffer.from(`${JSON.stringify(message)}\n`);
const bytesOf = (pieces: (string | Buffer)[]) => Buffer.concat(pieces.map((piece) => Buffer.from(piece)));

/** A `todo` answer as the server sends it: the tool's result as an MCP result, in a response. */
function answer(tool: TodoTool, params: Record<string, unknown>, id: number | string = 7): JSONRPCMessage {
  const { content, details } = tool.call(params);
  const result: Record<string, unknown> = { content, structuredContent: details };
  if (details.error !== undefined) result.isError = true;
  return { jsonrpc: '2.0', id, result } as unknown as JSONRPCMessage;
}

/** A todo list of `size` tasks whose texts need escaping in JSON. */
function listOf(size: number): TodoTool {
  const tool = new TodoTool({ limits: { maxTasks: 10_000 } });
  for (let i = 1; i <= size; i += 1) {
    tool.call({
      action: 'create',
      subject: `Task ${i} "quoted" \\ back\u2028slash é 🚀 raider-tasks-`,
      ...(i % 3 ? {} : { description: 'line one\nline two\ttab', metadata: { n: i, nested: { ok: true } } }),
      ...(i > 1 && i % 5 === 0 ? { blockedBy: [i - 1] } : {}),
    });
  }
  return tool;
}

describe('messageLine: the bytes the SDK would write', () => {
  it('writes an answer with a big list as JSON.stringify(message) + newline, byte for byte', () => {
    const tool = listOf(300);
    for (const params of [
      { action: 'get', id: 150 },
      { action: 'list' },
      { action: 'get', id: 9999 }, // a rejection: details.error after nextId, isError set
      { action: 'update', id: 3, status: 'in_progress' },
    ]) {
      const message = answer(tool, params);
      expect(bytesOf(messageLine(message)).equals(sdkLine(message))).toBe(true);
    }
  });

  it('serves a list again from the bytes it made, and a changed list afresh', () => {
    const tool = listOf(100);
    const first = messageLine(answer(tool, { action: 'get', id: 1 }));
    const before = bytesOf(first);
    const again = messageLine(answer(tool, { action: 'get', id: 1 }));
    // Sent again: the list's bytes are reused, between the text before and after it.
    expect(again).toHaveLength(3);
    expect(Buffer.isBuffer(again[1])).toBe(true);
    expect(bytesOf(again).equals(before)).toBe(true);
    tool.call({ action: 'update', id: 50, status: 'completed' });
    const message = answer(tool, { action: 'get', id: 1 });
    const after = bytesOf(messageLine(message));
    expect(after.equals(before)).toBe(false);
    expect(after.equals(sdkLine(message))).toBe(true);
    const tasks = JSON.parse(after.toString()).result.structuredContent.tasks as { id: number; status: string }[];
    expect(tasks.find((t) => t.id === 50)?.status).toBe('completed');
  });

  it('leaves every other message to JSON.stringify: small lists, copies of a list, requests, errors', () => {
    const small = answer(listOf(10), { action: 'list' });
    const copied = answer(listOf(100), { action: 'list' }) as unknown as {
      result: { structuredContent: { tasks: unknown[] } };
    };
    // An equal array that is not the tool's own: its JSON is made per message, so changing it shows.
    const mutable = [...copied.result.structuredContent.tasks];
    copied.result.structuredContent = { ...copied.result.structuredContent, tasks: mutable };
    const first = messageLine(copied as unknown as JSONRPCMessage);
    mutable.pop();
    const second = messageLine(copied as unknown as JSONRPCMessage);
    expect(bytesOf(second).equals(sdkLine(copied))).toBe(true);
    expect(bytesOf(first).length).toBeGreaterThan(bytesOf(second).length);
    const others: unknown[] = [
      small,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'raider://tasks' } },
      { jsonrpc: '2.0', id: 'x', error: { code: -32602, message: 'bad "params"' } },
      { jsonrpc: '2.0', id: 2, result: { content: [], structuredContent: { tasks: 'not a list' } } },
    ];
    for (const message of others) {
      expect(messageLine(message as JSONRPCMessage)).toHaveLength(1);
      expect(bytesOf(messageLine(message as JSONRPCMessage)).equals(sdkLine(message))).toBe(true);
    }
  });

  it('matches JSON.stringify for any sequence of calls on a big list (property)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 30 });
    const call = fc.oneof(
      fc.record({ action: fc.constant('create'), subject: text, description: text }),
      fc.record({
        action: fc.constant('update'),
        id: fc.integer({ min: 1, max: 90 }),
        status: fc.constantFrom('pending', 'in_progress', 'completed', 'deleted'),
      }),
      fc.record({ action: fc.constant('update'), id: fc.integer({ min: 1, max: 90 }), subject: text }),
      fc.record({ action: fc.constant('get'), id: fc.integer({ min: 1, max: 90 }) }),
      fc.record({ action: fc.constant('delete'), id: fc.integer({ min: 1, max: 90 }) }),
      fc.constant({ action: 'list' }),
    );
    fc.assert(
      fc.property(fc.array(call, { maxLength: 12 }), fc.oneof(fc.integer(), text), (calls, id) => {
        const tool = listOf(70);
        for (const params of calls) {
          const message = answer(tool, params, id);
          expect(bytesOf(messageLine(message)).equals(sdkLine(message))).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('RaiderStdioTransport: a line that nests too deep', () => {
  it('is answered with an error line, never reaches the SDK reader, and passes the tap by', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new RaiderStdioTransport(stdin, stdout);
    const tapped = tapTransport(transport);
    const received: unknown[] = [];
    tapped.transport.onmessage = (message) => received.push(message);
    let written = '';
    stdout.on('data', (chunk: Buffer) => (written += chunk));
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","id":5,"method":"tools/list"}\n');
    await expect.poll(() => received.length).toBe(1);
    expect(tapped.inFlight()).toBe(1);
    const arrays = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    // The same id as the call in flight (a careless client): its refusal must not end that call.
    stdin.write(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t","arguments":{"x":${arrays}}}}\n`);
    stdin.write(`${arrays}\n{"jsonrpc":"2.0","id":6,"method":"ping"}\n`);
    await expect.poll(() => written.split('\n').length).toBe(3);
    const message = 'Invalid request: the message nests too deep: expected at most 64 levels of arrays and objects';
    expect(written.split('\n').map((line) => line && JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', error: { code: -32600, message: `${message}, received 10003 levels` }, id: 5 },
      { jsonrpc: '2.0', error: { code: -32600, message: `${message}, received 10000 levels` }, id: null },
      '',
    ]);
    await expect.poll(() => received.length).toBe(2);
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      { jsonrpc: '2.0', id: 6, method: 'ping' },
    ]);
    expect(tapped.inFlight()).toBe(2);
    await transport.close();
  });
});
