// The `./v2` entry end to end: the shared suite, with the golden answers of the `.` entry, in
// the 2026 era (input_required) and in the 2025 era through the SDK's shim, with a v1 and a v2
// client; then what only v2 has: the wire of each era, the order of answerers, the waits.

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  createMcpHandler,
  createRequestStateCodec,
  InMemoryTransport,
  type JSONRPCMessage,
  McpServer,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { describeAskTools } from '../testing/ask-tools-suite.js';
import type { ElicitHandler } from '../testing/harness.js';
import { v2Client, v2LegacyHarness, v2ModernHarness } from '../testing/v2-harnesses.js';
import { AskTools, elicitationAnswerer, type QuestionState, UNAVAILABLE } from './index.js';

describeAskTools(v2ModernHarness());
describeAskTools(v2LegacyHarness('v1'));
describeAskTools(v2LegacyHarness('v2'));

const DECIDE = 'Decide for yourself, go on, and say in your reply what you assumed.';
const FORM = {
  mode: 'form',
  message: 'Which database?',
  requestedSchema: {
    type: 'object',
    properties: { answer: { type: 'string', title: 'Your answer' } },
    required: ['answer'],
  },
};
/** The error result of a question that could not be put to the user, for `reason`. */
const notPut = (reason: string) => ({
  content: [{ type: 'text', text: `The question could not be put to the user: ${reason}. ${DECIDE}` }],
  isError: true,
});
const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

type Body = { method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/**
 * A 2026-era client of servers made per request by `mount`, with every JSON-RPC body the
 * client posts and the server answers; `rewrite` may change a posted body first (a client
 * that does something other than the SDK's).
 */
async function modern(
  mount: (server: McpServer) => void,
  handler: ElicitHandler | undefined,
  rewrite: (body: Body) => Body = (body) => body,
) {
  const mcp = createMcpHandler(() => {
    const server = new McpServer({ name: 's', version: '1' });
    mount(server);
    return server;
  });
  const wire: { sent: Body; answer: Body | undefined }[] = [];
  const transport = new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
    fetch: async (url, init) => {
      const sent = rewrite(JSON.parse(String(init?.body)) as Body);
      const response = await mcp.fetch(new Request(url, { ...init, body: JSON.stringify(sent) }));
      const text = await response.clone().text();
      // A JSON response, or the last `data:` line of a stream.
      const json = text.startsWith('{')
        ? text
        : text
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .pop()
            ?.slice(6);
      wire.push({ sent, answer: json ? (JSON.parse(json) as Body) : undefined });
      return response;
    },
  });
  const { client, connection } = v2Client(handler, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  open.push(client, mcp);
  return { ...connection, wire, client };
}

/** A 2025-era v1 client of `server`, with every message the server sends and the options it sends them with. */
async function legacyV1(server: McpServer, handler: ElicitHandler) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const sent: { message: JSONRPCMessage & Body; relatedRequestId?: unknown }[] = [];
  const send = a.send.bind(a);
  a.send = (message, options) => {
    sent.push({ message: message as JSONRPCMessage & Body, relatedRequestId: options?.relatedRequestId });
    return send(message, options);
  };
  const client = new V1Client({ name: 'c', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(
    ElicitRequestSchema,
    (request, extra) => handler(request.params as never, extra.signal) as never,
  );
  await Promise.all([server.connect(a), client.connect(b as never)]);
  open.push(client);
  return { client, sent };
}

describe('the 2026 era on the wire', () => {
  it('asks with input_required and reads the answer on the retry: no elicitation/create, no requestState', async () => {
    const { call, wire } = await modern(
      (server) => new AskTools().register(server),
      () => ({ action: 'accept', content: { answer: 'Postgres' } }),
    );
    expect(await call('ask_user', { question: 'Which database?' })).toEqual({
      content: [{ type: 'text', text: 'Postgres' }],
    });
    const calls = wire.filter((w) => w.sent.method === 'tools/call');
    expect(calls).toHaveLength(2);
    const [asked, retried] = calls;
    expect(asked?.answer?.result?.resultType).toBe('input_required');
    const inputRequests = asked?.answer?.result?.inputRequests as Record<string, { method: string; params: unknown }>;
    const [key, ...others] = Object.keys(inputRequests);
    expect(others).toEqual([]);
    expect(key).toMatch(/^question@\d+$/);
    // The form of the `.` entry, embedded: one question per ask_user call.
    expect(inputRequests[key as string]).toEqual({ method: 'elicitation/create', params: FORM });
    expect(asked?.answer?.result).not.toHaveProperty('requestState');
    expect(retried?.sent.params).toMatchObject({
      name: 'ask_user',
      arguments: { question: 'Which database?' },
      inputResponses: { [key as string]: { action: 'accept', content: { answer: 'Postgres' } } },
    });
    expect(retried?.sent.params).not.toHaveProperty('requestState');
    expect(retried?.answer?.result?.resultType).toBe('complete');
    expect(wire.some((w) => w.sent.method === 'elicitation/create' || w.answer?.method === 'elicitation/create')).toBe(
      false,
    );
  });

  it('AskUserQuestion asks every question in one round', async () => {
    const { call, wire, requests } = await modern(
      (server) => new AskTools().registerAskUserQuestion(server),
      () => ({ action: 'accept', content: { q1: 'b', q2: 'c' } }),
    );
    const ask = (question: string, labels: string[]) => ({
      question,
      header: 'H',
      options: labels.map((label) => ({ label, description: '' })),
    });
    expect(
      await call('AskUserQuestion', { questions: [ask('A or B?', ['a', 'b']), ask('C or D?', ['c', 'd'])] }),
    ).toEqual({
      content: [
        {
          type: 'text',
          text: 'Your questions have been answered: "A or B?"="b", "C or D?"="c". You can now continue with these answers in mind.',
        },
      ],
    });
    expect(requests).toHaveLength(1);
    expect(wire.filter((w) => w.sent.method === 'tools/call')).toHaveLength(2);
  });

  it('an answer whose question was asked longer than timeoutMs ago is the timed-out result', async () => {
    // A client that comes back with the answer under the key of a question asked an hour ago.
    const { call } = await modern(
      (server) => new AskTools({ timeoutMs: 60_000 }).register(server),
      () => ({ action: 'accept', content: { answer: 'late' } }),
      (body) => {
        const responses = body.params?.inputResponses as Record<string, unknown> | undefined;
        if (!responses) return body;
        const answer = Object.values(responses)[0];
        return {
          ...body,
          params: { ...body.params, inputResponses: { [`question@${Date.now() - 3_600_000}`]: answer } },
        };
      },
    );
    expect(await call('ask_user', { question: 'Still there?' })).toEqual({
      content: [{ type: 'text', text: `The question timed out: no answer came within 1 minute. ${DECIDE}` }],
      isError: true,
    });
  });

  it('a retry that answers with something other than the form is an error result', async () => {
    const { call } = await modern(
      (server) => new AskTools().register(server),
      () => ({ action: 'accept', content: { answer: 'x' } }),
      (body) => {
        const responses = body.params?.inputResponses as Record<string, unknown> | undefined;
        if (!responses) return body;
        const [key] = Object.keys(responses);
        const sampled = { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' };
        return { ...body, params: { ...body.params, inputResponses: { [key as string]: sampled } } };
      },
    );
    expect(await call('ask_user', { question: 'q' })).toEqual(
      notPut('the client answered with something other than the form'),
    );
  });

  it('a server that verifies requestState for its other tools is no obstacle: raider sets none', async () => {
    const codec = createRequestStateCodec({ key: new Uint8Array(32).fill(7) });
    const mcp = createMcpHandler(() => {
      const server = new McpServer({ name: 's', version: '1' }, { requestState: { verify: codec.verify } });
      new AskTools().register(server);
      return server;
    });
    const transport = new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
      fetch: (url, init) => mcp.fetch(new Request(url, init)),
    });
    const { client, connection } = v2Client(() => ({ action: 'accept', content: { answer: 'fine' } }), {
      versionNegotiation: { mode: 'auto' },
    });
    await client.connect(transport);
    open.push(client, mcp);
    expect(await connection.call('ask_user', { question: 'q' })).toEqual({ content: [{ type: 'text', text: 'fine' }] });
  });
});

/**
 * Calls ask_user on `server` from a v1 client whose user answers SQLite: the answer is the result,
 * and the one elicitation/create the client got asked the form, related to the tool call.
 */
async function expectOneRelatedElicitation(server: McpServer): Promise<void> {
  const { client, sent } = await legacyV1(server, () => ({ action: 'accept', content: { answer: 'SQLite' } }));
  expect(await client.callTool({ name: 'ask_user', arguments: { question: 'Which database?' } })).toEqual({
    content: [{ type: 'text', text: 'SQLite' }],
  });
  const elicitations = sent.filter((s) => s.message.method === 'elicitation/create');
  expect(elicitations).toHaveLength(1);
  expect(elicitations[0]?.message.params).toMatchObject(FORM);
  const call = sent.find((s) => s.message.result?.content)?.message as { id?: unknown } | undefined;
  expect(elicitations[0]?.relatedRequestId).toBe(call?.id);
}

describe('the 2025 era through the shim', () => {
  it('sends the v1 client a real elicitation/create, related to the tool call', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    new AskTools().register(server);
    await expectOneRelatedElicitation(server);
  });

  it('a v2 client left on the 2025 era gets the same elicitation/create', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    new AskTools().register(server);
    const [a, b] = InMemoryTransport.createLinkedPair();
    const methods: string[] = [];
    const send = a.send.bind(a);
    a.send = (message, options) => {
      if ('method' in message) methods.push(message.method);
      return send(message, options);
    };
    const { client, connection } = v2Client(() => ({ action: 'accept', content: { answer: 'ok' } }));
    await Promise.all([server.connect(a), client.connect(b)]);
    open.push(client);
    expect(client.getProtocolEra()).toBe('legacy');
    expect(await connection.call('ask_user', { question: 'Which database?' })).toEqual({
      content: [{ type: 'text', text: 'ok' }],
    });
    expect(methods).toEqual(['elicitation/create']);
    expect(connection.requests[0]).toMatchObject(FORM);
  });

  it('AskTools#server waits timeoutMs for the form; then the shim ends the call with its own text', async () => {
    const ask = new AskTools({ timeoutMs: 200 });
    const { client } = await legacyV1(ask.server, () => new Promise(() => {}));
    const result = (await client.callTool({ name: 'ask_user', arguments: { question: 'Still there?' } })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    expect(result).toEqual({
      content: [{ type: 'text', text: "Fulfilling input required by 'tools/call' failed: Request timed out" }],
      isError: true,
    });
  });

  it('progress goes out while the shim waits and stops once the answer is in', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    new AskTools({ progressIntervalMs: 20 }).register(server);
    let progress = 0;
    const { client, sent } = await legacyV1(server, async () => {
      while (progress < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      return { action: 'accept', content: { answer: 'ok' } };
    });
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'q' } }, undefined, {
      onprogress: () => {
        progress += 1;
      },
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    const count = () => sent.filter((s) => s.message.method === 'notifications/progress').length;
    const atAnswer = count();
    expect(atAnswer).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(count()).toBe(atAnswer);
  });

  it('progress after a form the shim could not get ends at timeoutMs at the latest', async () => {
    // The client answers the elicitation with an error: the shim answers the call itself and the
    // tool is not re-entered, so only the timeout stops the progress it was keeping alive.
    const server = new McpServer({ name: 's', version: '1' });
    new AskTools({ progressIntervalMs: 20, timeoutMs: 150 }).register(server);
    let progress = 0;
    const { client, sent } = await legacyV1(server, async () => {
      while (progress < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('no form here');
    });
    const result = (await client.callTool({ name: 'ask_user', arguments: { question: 'q' } }, undefined, {
      onprogress: () => {
        progress += 1;
      },
    })) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^Fulfilling input required by 'tools\/call' failed: /);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const count = () => sent.filter((s) => s.message.method === 'notifications/progress').length;
    const settled = count();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(count()).toBe(settled);
  });

  it('a 2025 client of stateless HTTP, which no server-to-client request can reach, gets the plain refusal', async () => {
    const mcp = createMcpHandler(() => {
      const server = new McpServer({ name: 's', version: '1' });
      new AskTools().register(server);
      return server;
    });
    const transport = new StreamableHTTPClientTransport(new URL('http://test.local/mcp'), {
      fetch: (url, init) => mcp.fetch(new Request(url, init)),
    });
    const { client, connection } = v2Client(() => ({ action: 'accept', content: { answer: 'never asked' } }));
    await client.connect(transport);
    open.push(client, mcp);
    expect(client.getProtocolEra()).toBe('legacy');
    expect(await connection.call('ask_user', { question: 'q' })).toEqual({
      content: [{ type: 'text', text: UNAVAILABLE }],
      isError: true,
    });
    expect(connection.requests).toEqual([]);
  });
});

describe('who answers (v2)', () => {
  it('the answerer first: an asker it yields answers while the call waits, and the client is not asked', async () => {
    let board: ((question: string) => Promise<string>) | undefined = async (question) => `board: ${question}`;
    const { call, requests, wire } = await modern(
      (server) => new AskTools({ answerer: () => board }).register(server),
      () => ({ action: 'accept', content: { answer: 'client' } }),
    );
    expect(await call('ask_user', { question: 'q' })).toEqual({ content: [{ type: 'text', text: 'board: q' }] });
    expect(requests).toEqual([]);
    expect(wire.filter((w) => w.sent.method === 'tools/call')).toHaveLength(1);
    board = undefined;
    expect(await call('ask_user', { question: 'q' })).toEqual({ content: [{ type: 'text', text: 'client' }] });
    expect(requests).toHaveLength(1);
  });

  it('the retry is read even when the answerer has an asker by then', async () => {
    let board: ((question: string) => Promise<string>) | undefined;
    const { call } = await modern(
      (server) => new AskTools({ answerer: () => board }).register(server),
      () => {
        board = async () => 'board';
        return { action: 'accept', content: { answer: 'client' } };
      },
    );
    expect(await call('ask_user', { question: 'q' })).toEqual({ content: [{ type: 'text', text: 'client' }] });
  });

  it('elicitation: false asks only the answerer, and refuses without one', async () => {
    const { call, requests } = await modern(
      (server) => new AskTools({ elicitation: false }).register(server),
      () => ({ action: 'accept', content: { answer: 'client' } }),
    );
    expect(await call('ask_user', { question: 'q' })).toEqual({
      content: [{ type: 'text', text: UNAVAILABLE }],
      isError: true,
    });
    expect(requests).toEqual([]);
  });
});

describe('elicitationAnswerer (v2)', () => {
  it('asks a 2025-era client with elicitation/create while the call waits (no shim round), related to the call', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    new AskTools({ answerer: elicitationAnswerer(server), elicitation: false }).register(server);
    await expectOneRelatedElicitation(server);
  });

  it('a declined form is the declined answer, as on the . entry', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    new AskTools({ answerer: elicitationAnswerer(server), elicitation: false }).register(server);
    const { client } = await legacyV1(server, () => ({ action: 'decline' }));
    const result = (await client.callTool({ name: 'ask_user', arguments: { question: 'Which?' } })) as {
      isError?: boolean;
    };
    expect(result.isError).toBe(true);
  });

  it('yields no asker on a 2026-era request: AskTools asks with input_required instead', async () => {
    const { call, requests } = await modern(
      (server) => new AskTools({ answerer: elicitationAnswerer(server) }).register(server),
      () => ({ action: 'accept', content: { answer: 'client' } }),
    );
    expect(await call('ask_user', { question: 'q' })).toEqual({ content: [{ type: 'text', text: 'client' }] });
    expect(requests).toHaveLength(1);
  });
});

describe('a signed question state (requestState)', () => {
  const codec = () => createRequestStateCodec<QuestionState>({ key: new Uint8Array(32).fill(9) });

  it('the round carries a signed requestState, the retry echoes it, and the answer is read', async () => {
    const signed = codec();
    const { call, wire } = await modern(
      (server) => new AskTools({ requestState: signed }).register(server),
      () => ({ action: 'accept', content: { answer: 'Signed' } }),
    );
    expect(await call('ask_user', { question: 'Which?' })).toEqual({ content: [{ type: 'text', text: 'Signed' }] });
    const asked = wire.find((w) => w.answer?.result?.resultType === 'input_required');
    const state = asked?.answer?.result?.requestState;
    expect(typeof state).toBe('string');
    expect((await signed.verify(state as string, {} as never)).asked).toMatch(/^[0-9a-f]{32}$/);
    const retried = wire.find((w) => w.sent.method === 'tools/call' && w.sent.params?.inputResponses);
    expect(retried?.sent.params?.requestState).toBe(state);
  });

  it('a forged state is refused: the answer does not count', async () => {
    const { call } = await modern(
      (server) => new AskTools({ requestState: codec() }).register(server),
      () => ({ action: 'accept', content: { answer: 'forged' } }),
      (body) =>
        body.params?.inputResponses ? { ...body, params: { ...body.params, requestState: 'v1.e30.AAAA' } } : body,
    );
    expect(await call('ask_user', { question: 'q' })).toEqual(
      notPut("the client's answer came back without the question's signed state"),
    );
  });

  it('an answer carried to another call than the one that asked is refused', async () => {
    const { call } = await modern(
      (server) => new AskTools({ requestState: codec() }).register(server),
      () => ({ action: 'accept', content: { answer: 'moved' } }),
      (body) =>
        body.params?.inputResponses
          ? { ...body, params: { ...body.params, arguments: { question: 'Another question?' } } }
          : body,
    );
    expect(await call('ask_user', { question: 'q' })).toEqual(
      notPut('the client answered another question than this call asked'),
    );
  });

  it('the time comes from the signed state: a key claiming a later question does not undo a timeout', async () => {
    const { call } = await modern(
      (server) => new AskTools({ timeoutMs: 1, requestState: codec() }).register(server),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { action: 'accept', content: { answer: 'late' } };
      },
      (body) => {
        const responses = body.params?.inputResponses as Record<string, unknown> | undefined;
        if (!responses) return body;
        const answer = Object.values(responses)[0];
        return { ...body, params: { ...body.params, inputResponses: { [`question@${Date.now()}`]: answer } } };
      },
    );
    const result = (await call('ask_user', { question: 'q' })) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^The question timed out: no answer came within /);
  });
});
