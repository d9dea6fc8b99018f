import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AskError, type Asker, AskTools, elicitationAnswerer, registerAskUserQuestion, UNAVAILABLE } from './index.js';

const DECIDE = 'Decide for yourself, go on, and say in your reply what you assumed.';
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Handler = (request: ElicitRequest, extra: { signal: AbortSignal }) => Promise<ElicitResult> | ElicitResult;

/** A server with ask_user answered by elicitation, and a client that elicits (when `handler`) or not. */
async function setup(handler?: Handler, options: { timeoutMs?: number; progressIntervalMs?: number } = {}) {
  const server = new McpServer({ name: 'test-server', version: '1.0.0' });
  const ask = new AskTools({ answerer: elicitationAnswerer(server), ...options });
  ask.register(server);
  registerAskUserQuestion(server, options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    handler ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const requests: ElicitRequest[] = [];
  if (handler) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      requests.push(request);
      return handler(request, extra);
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  clients.push(client);
  return { server, client, requests, ask };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe('ask_user through elicitation', () => {
  it('a free-text question: the answer is the result text', async () => {
    const { client, requests } = await setup(() => ({ action: 'accept', content: { answer: 'Use Postgres' } }));
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Which database?' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Use Postgres' }],
      structuredContent: { answer: 'Use Postgres' },
    });
    expect(requests[0]?.params).toMatchObject({
      mode: 'form',
      message: 'Which database?',
      requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
    });
  });

  it('options are a single choice that also takes free text', async () => {
    let content: Record<string, string> = { choice: 'SQLite' };
    const { client, requests } = await setup(() => ({ action: 'accept', content }));
    const args = { question: 'Which database?', options: ['Postgres', 'SQLite'] };
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: args }))).toBe('SQLite');
    const schema = (requests[0]?.params as { requestedSchema?: unknown } | undefined)?.requestedSchema as {
      properties: Record<string, { oneOf?: unknown[] }>;
    };
    expect(schema.properties.choice?.oneOf).toEqual([
      { const: 'Postgres', title: 'Postgres' },
      { const: 'SQLite', title: 'SQLite' },
    ]);
    expect(schema.properties.other).toMatchObject({ type: 'string' });
    content = { choice: 'SQLite', other: 'DuckDB, actually' };
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: args }))).toBe('DuckDB, actually');
  });

  it.each([
    ['declined', { action: 'decline' } as ElicitResult, `The user declined to answer the question. ${DECIDE}`],
    ['cancelled', { action: 'cancel' } as ElicitResult, `The user dismissed the question without answering. ${DECIDE}`],
    ['empty', { action: 'accept', content: { answer: '   ' } } as ElicitResult, `The user gave no answer. ${DECIDE}`],
  ])('%s: an error result, never an answer', async (_name, outcome, text) => {
    const { client } = await setup(() => outcome);
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Go on?' } });
    expect(result).toEqual({ content: [{ type: 'text', text }], isError: true });
  });

  it('a late answer: timed out', async () => {
    const { client } = await setup(() => new Promise(() => {}), { timeoutMs: 200 });
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Still there?' } });
    expect(result).toEqual({
      content: [{ type: 'text', text: `The question timed out: no answer came within 200 ms. ${DECIDE}` }],
      isError: true,
    });
  });

  it('a client without elicitation gets the plain refusal', async () => {
    const { client, ask } = await setup();
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Anyone?' } });
    expect(result).toEqual({ content: [{ type: 'text', text: UNAVAILABLE }], isError: true });
    expect(ask.unavailable).toBe(UNAVAILABLE);
    expect(UNAVAILABLE).toBe(
      'Nobody can answer questions in this session: no person is at the keyboard to answer. Decide for yourself, go on, and say in your reply what you assumed.',
    );
  });

  it('cancelling the tool call aborts the question', async () => {
    let aborted: Promise<void> | undefined;
    let calls = 0;
    const { client } = await setup((_request, extra) => {
      calls += 1;
      // The first server-to-client request has id 0, whose cancellation an SDK client ignores.
      if (calls === 1) return { action: 'accept', content: { answer: 'warm-up' } };
      aborted = new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve()));
      return new Promise(() => {});
    });
    await client.callTool({ name: 'ask_user', arguments: { question: 'warm-up?' } });
    const controller = new AbortController();
    const call = client.callTool({ name: 'ask_user', arguments: { question: 'Slow?' } }, undefined, {
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(aborted).toBeDefined());
    controller.abort('changed my mind');
    await expect(call).rejects.toBeDefined();
    await expect(aborted).resolves.toBeUndefined();
  });

  it('sends progress while waiting when the client gave a progress token', async () => {
    // The person answers once two progress notifications have reached the client, however slow
    // the machine: the test waits on events, not on a clock.
    const progress: number[] = [];
    const { client } = await setup(
      () =>
        new Promise((resolve) => {
          const poll = setInterval(() => {
            if (progress.length < 2) return;
            clearInterval(poll);
            resolve({ action: 'accept', content: { answer: 'ok' } });
          }, 5);
        }),
      { progressIntervalMs: 30 },
    );
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Wait?' } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(textOf(result)).toBe('ok');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
  });

  it('the elicitation is related to the tool call', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const ask = new AskTools({ answerer: elicitationAnswerer(server) });
    ask.register(server);
    const client = new Client({ name: 'c', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { answer: 'x' } }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    const sent: unknown[] = [];
    const send = a.send.bind(a);
    a.send = (message, options) => {
      sent.push({ message, options });
      return send(message, options);
    };
    await Promise.all([server.connect(a), client.connect(b)]);
    clients.push(client);
    await client.callTool({ name: 'ask_user', arguments: { question: 'q' } });
    const elicitation = sent.find(
      (s) => (s as { message: { method?: string } }).message.method === 'elicitation/create',
    ) as {
      options?: { relatedRequestId?: unknown };
    };
    expect(elicitation.options?.relatedRequestId).toBeDefined();
  });
});

describe('answerers', () => {
  it('no answerer: every call is refused', async () => {
    const ask = new AskTools();
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([ask.server.connect(a), client.connect(b)]);
    clients.push(client);
    expect(await client.callTool({ name: 'ask_user', arguments: { question: 'q' } })).toEqual({
      content: [{ type: 'text', text: UNAVAILABLE }],
      isError: true,
    });
    expect(ask.server).toBe(ask.server);
  });

  it('the answerer is asked on every call: one registered after mounting is used', async () => {
    let asker: Asker | undefined;
    const answerer = vi.fn(() => asker);
    const ask = new AskTools({ answerer });
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([ask.server.connect(a), client.connect(b)]);
    clients.push(client);
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'q' } }))).toBe(UNAVAILABLE);
    asker = async (question, options) => `${question} -> ${options.join('/') || 'free'}`;
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'q', options: ['a', 'b'] } }))).toBe(
      'q -> a/b',
    );
    asker = async () => undefined;
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'q' } }))).toBe(
      `The user gave no answer. ${DECIDE}`,
    );
    asker = async () => '';
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'q' } }))).toBe(
      `The user's answer was empty, which is not an answer. ${DECIDE}`,
    );
    asker = async () => {
      throw new Error('terminal went away');
    };
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'q' } }))).toBe(
      `The question could not be put to the user: terminal went away. ${DECIDE}`,
    );
    expect(answerer).toHaveBeenCalledTimes(5);
  });

  it('an asker that ignores the signal still cannot block past the timeout', async () => {
    const ask = new AskTools({ answerer: () => () => new Promise(() => {}), timeoutMs: 100 });
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([ask.server.connect(a), client.connect(b)]);
    clients.push(client);
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'q' } }))).toBe(
      `The question timed out: no answer came within 100 ms. ${DECIDE}`,
    );
  });

  it('the elicitation answerer reports a client that disconnects', async () => {
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
});

describe('ask_user input', () => {
  it.each([
    [{}, 'Error: question: expected a question (a non-empty text), received nothing'],
    [{ question: '  ' }, 'Error: question: expected a question (a non-empty text), received "  "'],
    [{ question: 'q', options: ['a', 'a'] }, 'Error: options: expected the options to be unique, received "a" twice'],
    [{ question: 'q', options: 'a,b' }, 'Error: options: expected a list of option texts, received "a,b"'],
    [{ question: 'q', choices: ['a'] }, 'Error: unknown key "choices"'],
  ])('rejects %j', async (args, message) => {
    const { client } = await setup(() => ({ action: 'accept', content: { answer: 'x' } }));
    const result = await client.callTool({ name: 'ask_user', arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it('never echoes a huge value: a duplicated 1 MB option is described by its length', async () => {
    const { client } = await setup(() => ({ action: 'accept', content: { answer: 'x' } }));
    const big = 'o'.repeat(1_000_000);
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'q', options: [big, big] } });
    expect(result.isError).toBe(true);
    const text = textOf(result) ?? '';
    expect(text.length).toBeLessThan(300);
    expect(text).toContain('a string of 1000000 characters');
  });

  it('describes every argument, and the schema it shows is the one it checks', async () => {
    const { client } = await setup();
    for (const tool of (await client.listTools()).tools) {
      for (const [key, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name}.${key}`).toMatch(/\w{3,}/);
      }
      expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
    }
  });

  it('lists ask_user as read-only, not destructive, not open-world', async () => {
    const { client } = await setup();
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    }
    expect(tools.map((t) => t.name)).toEqual(['ask_user', 'AskUserQuestion']);
  });
});

describe('AskUserQuestion', () => {
  const questions = [
    {
      question: 'Which library?',
      header: 'Library',
      options: [
        { label: 'date-fns', description: 'small, functional' },
        { label: 'luxon', description: 'time zones' },
      ],
      multiSelect: false,
    },
    {
      question: 'Which features?',
      header: 'Features',
      options: [
        { label: 'Parsing', description: '' },
        { label: 'Formatting', description: '' },
        { label: 'Zones', description: '' },
      ],
      multiSelect: true,
    },
  ];

  it('asks all questions in one form and answers in Claude Code’s words', async () => {
    const { client, requests } = await setup(() => ({
      action: 'accept',
      content: { q1: 'date-fns', q2: ['Parsing', 'Zones'] },
    }));
    const result = await client.callTool({ name: 'AskUserQuestion', arguments: { questions } });
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'User has answered your questions: "Which library?"="date-fns", "Which features?"="Parsing, Zones". You can now continue with the user\'s answers in mind.',
        },
      ],
      structuredContent: { answers: { 'Which library?': 'date-fns', 'Which features?': 'Parsing, Zones' } },
    });
    expect(requests).toHaveLength(1);
    const schema = (requests[0]?.params as { requestedSchema?: unknown } | undefined)?.requestedSchema as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(schema.properties)).toEqual(['q1', 'q1_other', 'q2', 'q2_other']);
    expect(schema.properties.q2).toMatchObject({ type: 'array', items: { enum: ['Parsing', 'Formatting', 'Zones'] } });
    expect(schema.properties.q1).toMatchObject({ type: 'string', title: 'Library', description: 'Which library?' });
    expect(JSON.stringify(schema)).not.toContain('"Other"');
  });

  it('the person can always answer in their own words', async () => {
    const { client } = await setup(() => ({ action: 'accept', content: { q1: 'luxon', q1_other: 'Temporal' } }));
    const result = await client.callTool({ name: 'AskUserQuestion', arguments: { questions: [questions[0]] } });
    expect(textOf(result)).toBe(
      'User has answered your questions: "Which library?"="Temporal". You can now continue with the user\'s answers in mind.',
    );
  });

  it('a question left unanswered is an error result that keeps what was answered', async () => {
    const { client } = await setup(() => ({ action: 'accept', content: { q1: 'luxon' } }));
    const result = await client.callTool({ name: 'AskUserQuestion', arguments: { questions } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'The user answered only some of your questions: "Which library?"="luxon". Left unanswered: "Which features?". Decide for yourself about those, go on, and say in your reply what you assumed.',
    );
  });

  it('without a form, asks question by question through the answerer', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const seen: string[][] = [];
    const ask = new AskTools({
      answerer: () => async (question, options) => {
        seen.push([question, ...options]);
        return options[0];
      },
    });
    ask.registerAskUserQuestion(server, { name: 'Ask' });
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    clients.push(client);
    expect(textOf(await client.callTool({ name: 'Ask', arguments: { questions } }))).toBe(
      'User has answered your questions: "Which library?"="date-fns", "Which features?"="Parsing". You can now continue with the user\'s answers in mind.',
    );
    expect(seen).toEqual([
      ['Which library?', 'date-fns', 'luxon'],
      ['Which features?', 'Parsing', 'Formatting', 'Zones'],
    ]);
  });

  it('refuses plainly without elicitation', async () => {
    const { client } = await setup();
    expect(await client.callTool({ name: 'AskUserQuestion', arguments: { questions } })).toEqual({
      content: [{ type: 'text', text: UNAVAILABLE }],
      isError: true,
    });
  });

  const q = (question: string, labels = ['a', 'b']) => ({
    question,
    header: 'H',
    options: labels.map((label) => ({ label, description: '' })),
  });
  it.each([
    [{ questions: [] }, 'expected 1 to 4 questions, received 0'],
    [{ questions: [q('1'), q('2'), q('3'), q('4'), q('5')] }, 'expected 1 to 4 questions, received 5'],
    [{ questions: [q('1', ['a'])] }, 'expected 2 to 4 options, received 1'],
    [{ questions: [q('1', ['a', 'b', 'c', 'd', 'e'])] }, 'expected 2 to 4 options, received 5'],
    [{ questions: [q('same'), q('same')] }, 'expected question texts to be unique, received "same" twice'],
    [{ questions: [q('1', ['a', 'a'])] }, 'expected option labels to be unique, received "a" twice'],
    [{ questions: [{ ...q('1'), header: '' }] }, 'expected a short label (a non-empty text), received ""'],
    [{ questions: [{ ...q('1'), multiSelect: 'yes' }] }, 'expected true or false, received "yes"'],
    [{ questions: [{ ...q('1'), other: true }] }, 'unknown key "other"'],
    [
      {
        questions: [
          {
            ...q('1'),
            options: [
              { label: 'a', description: 'd'.repeat(1500) },
              { label: 'b', description: '' },
            ],
          },
        ],
      },
      'Error: questions.0.options.0.description: expected at most 1000 characters, received 1500 characters',
    ],
  ])('validates its input: %j', async (args, message) => {
    const { client } = await setup(() => ({ action: 'accept', content: {} }));
    const result = await client.callTool({ name: 'AskUserQuestion', arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(message);
  });
});

describe('AskError outcomes from an answerer', () => {
  it.each([
    [
      new AskError('aborted', 'the server is shutting down'),
      `The question was withdrawn: the server is shutting down. ${DECIDE}`,
    ],
    [new AskError('declined'), `The user declined to answer the question. ${DECIDE}`],
    [new AskError('disconnected'), `The client disconnected before the user answered. ${DECIDE}`],
  ])('%s', async (error, text) => {
    const ask = new AskTools({
      answerer: () => async () => {
        throw error;
      },
    });
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([ask.server.connect(a), client.connect(b)]);
    clients.push(client);
    expect(await client.callTool({ name: 'ask_user', arguments: { question: 'q' } })).toEqual({
      content: [{ type: 'text', text }],
      isError: true,
    });
  });
});
