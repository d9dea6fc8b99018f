// The `.` entry (v1) end to end: the shared suite through a v1 server and a v1 client, then what
// only v1 has (the elicitation answerer itself, its request related to the call, the wire of
// tools/list byte for byte as before the v2 adapter existed).
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AskError, type Asker, AskTools, elicitationAnswerer, registerAskUserQuestion } from '../index.js';
import { describeAskTools } from '../testing/ask-tools-suite.js';
import { v1Harness } from '../testing/v1-harness.js';

describeAskTools(v1Harness());

const DECIDE = 'Decide for yourself, go on, and say in your reply what you assumed.';
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** Connects an eliciting v1 client to `server`, recording what the server sends. */
async function connect(
  server: McpServer,
  answer: () => unknown = () => ({ action: 'accept', content: { answer: 'x' } }),
) {
  const client = new Client({ name: 'c', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, answer as never);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const sent: {
    message: { method?: string; result?: { tools?: unknown } };
    options?: { relatedRequestId?: unknown };
  }[] = [];
  const send = a.send.bind(a);
  a.send = (message, options) => {
    sent.push({ message: message as never, ...(options ? { options } : {}) });
    return send(message, options);
  };
  await Promise.all([server.connect(a), client.connect(b)]);
  clients.push(client);
  return { client, sent };
}

describe('the elicitation answerer (v1)', () => {
  it('a question nobody answers times out at timeoutMs while the form is still open', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    new AskTools({ answerer: elicitationAnswerer(server), timeoutMs: 200 }).register(server);
    const { client } = await connect(server, () => new Promise(() => {}));
    expect(await client.callTool({ name: 'ask_user', arguments: { question: 'Still there?' } })).toEqual({
      content: [{ type: 'text', text: `The question timed out: no answer came within 200 ms. ${DECIDE}` }],
      isError: true,
    });
  });

  it('the elicitation is related to the tool call', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    new AskTools({ answerer: elicitationAnswerer(server) }).register(server);
    const { client, sent } = await connect(server);
    await client.callTool({ name: 'ask_user', arguments: { question: 'q' } });
    const elicitation = sent.find((s) => s.message.method === 'elicitation/create');
    expect(elicitation?.options?.relatedRequestId).toBeDefined();
  });

  it('reports a client that disconnects', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const client = new Client({ name: 'c', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => {
      setTimeout(() => client.close(), 10);
      return new Promise(() => {});
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const asker = elicitationAnswerer(server)();
    expect(asker).toBeDefined();
    const error = await (asker as Asker)('q', [], new AbortController().signal).catch((e) => e);
    expect(error).toBeInstanceOf(AskError);
    expect((error as AskError).code).toBe('disconnected');
  });

  it('yields no asker for a client that declared no elicitation', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    clients.push(client);
    expect(elicitationAnswerer(server)()).toBeUndefined();
    expect(elicitationAnswerer(server.server)()).toBeUndefined();
  });
});

describe('tools/list on the wire (v1)', () => {
  it('is byte for byte what the . entry sent before the v2 adapter existed, with and without structuredOutput', async () => {
    // src/v1/tools-list.wire.txt was recorded from the build of the commit before the split
    // (scripts of the same four mounts), its annotations changed since on purpose (issue 36: the
    // question tools are not read-only and not idempotent, each hint spelled out): any other
    // change of a byte in what v1 clients see fails here.
    const recorded = readFileSync(new URL('./tools-list.wire.txt', import.meta.url), 'utf8')
      .trimEnd()
      .split('\n');
    const wire: string[] = [];
    const list = async (server: McpServer) => {
      const { client, sent } = await connect(server);
      await client.listTools();
      const response = sent.find((s) => s.message.result?.tools);
      wire.push(JSON.stringify(response?.message.result));
    };
    for (const structuredOutput of [false, true]) {
      const server = new McpServer({ name: 's', version: '1' });
      const ask = new AskTools({ answerer: elicitationAnswerer(server), structuredOutput });
      ask.register(server);
      ask.registerAskUserQuestion(server);
      ask.registerAskUserQuestion(server, { name: 'Ask2' });
      registerAskUserQuestion(server, { name: 'Ask', structuredOutput });
      await list(server);
      await list(new AskTools({ structuredOutput }).server);
    }
    expect(wire).toEqual(recorded);
  });
});
