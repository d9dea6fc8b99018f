import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AskError, type Asker, AskTools, elicitationAnswerer, registerAskUserQuestion, UNAVAILABLE } from '../index.js';

const DECIDE = 'Decide for yourself, go on, and say in your reply what you assumed.';
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Handler = (request: ElicitRequest, extra: { signal: AbortSignal }) => Promise<ElicitResult> | ElicitResult;

type SetupOptions = { timeoutMs?: number; progressIntervalMs?: number; structuredOutput?: boolean };

/**
 * A server with ask_user and AskUserQuestion answered by elicitation, and a client that elicits
 * (when `handler`) or not.
 */
async function setup(handler?: Handler, options: SetupOptions = {}) {
  const server = new McpServer({ name: 'test-server', version: '1.0.0' });
  const ask = new AskTools({ answerer: elicitationAnswerer(server), ...options });
  ask.register(server);
  ask.registerAskUserQuestion(server);
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
    // Text only, no structuredContent: Claude Code would show the model that JSON instead.
    expect(result).toEqual({ content: [{ type: 'text', text: 'Use Postgres' }] });
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

  // Claude Code 2.1.332's wordings, written out in full: a test must fail on any change of a character.
  const labelsOnly = (entries: string) =>
    `Your questions have been answered: ${entries}. You can now continue with these answers in mind.`;
  const ownWords = (entries: string) =>
    `The user answered: ${entries}. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`;

  it('asks all questions in one form, with a free-text field beside each and no "Other" option', async () => {
    const { client, requests } = await setup(() => ({
      action: 'accept',
      content: { q1: 'date-fns', q2: ['Parsing', 'Zones'] },
    }));
    await client.callTool({ name: 'AskUserQuestion', arguments: { questions } });
    expect(requests).toHaveLength(1);
    const schema = (requests[0]?.params as { requestedSchema?: unknown } | undefined)?.requestedSchema as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(schema.properties)).toEqual(['q1', 'q1_other', 'q2', 'q2_other']);
    expect(schema.properties.q2).toMatchObject({ type: 'array', items: { enum: ['Parsing', 'Formatting', 'Zones'] } });
    expect(schema.properties.q1).toMatchObject({ type: 'string', title: 'Library', description: 'Which library?' });
    expect(JSON.stringify(schema)).not.toContain('"Other"');
  });

  it.each([
    [
      'every answer an offered label (multiSelect labels joined by ", ")',
      { q1: 'date-fns', q2: ['Parsing', 'Zones'] },
      labelsOnly('"Which library?"="date-fns", "Which features?"="Parsing, Zones"'),
    ],
    [
      'an answer typed in the person’s own words (Other) instead of a label',
      { q1: 'luxon', q1_other: 'Temporal', q2: ['Parsing'] },
      ownWords('"Which library?"="Temporal", "Which features?"="Parsing"'),
    ],
    [
      'a multiSelect answer with labels and typed text',
      { q1: 'date-fns', q2: ['Parsing'], q2_other: 'Durations' },
      ownWords('"Which library?"="date-fns", "Which features?"="Parsing, Durations"'),
    ],
    [
      'typed text that is exactly an offered label counts as that label',
      { q1_other: 'luxon', q2: ['Zones'] },
      labelsOnly('"Which library?"="luxon", "Which features?"="Zones"'),
    ],
    [
      'partly answered with labels: entries for what was answered, nothing said of the rest',
      { q1: 'luxon' },
      labelsOnly('"Which library?"="luxon"'),
    ],
    [
      'partly answered in the person’s own words',
      { q2_other: 'Only parsing' },
      ownWords('"Which features?"="Only parsing"'),
    ],
    ['nothing answered', {}, 'The user did not answer the questions.'],
    ['only blanks and an empty multiple choice', { q1_other: '   ', q2: [] }, 'The user did not answer the questions.'],
  ])('through the form, %s', async (_name, content, text) => {
    const { client } = await setup(() => ({ action: 'accept', content }));
    const result = await client.callTool({ name: 'AskUserQuestion', arguments: { questions } });
    // The whole result: text only (no structuredContent, not an error), every character as Claude Code's.
    expect(result).toEqual({ content: [{ type: 'text', text }] });
  });

  it('a multiSelect label holding ", " is still an offered label', async () => {
    const { client } = await setup(() => ({ action: 'accept', content: { q1: ['Yes, please', 'Later'] } }));
    const polite = {
      question: 'Add tests?',
      header: 'Tests',
      options: [
        { label: 'Yes, please', description: '' },
        { label: 'Later', description: '' },
      ],
      multiSelect: true,
    };
    expect(await client.callTool({ name: 'AskUserQuestion', arguments: { questions: [polite] } })).toEqual({
      content: [{ type: 'text', text: labelsOnly('"Add tests?"="Yes, please, Later"') }],
    });
  });

  it.each([
    [
      'every answer a label',
      (options: string[]) => options[0],
      labelsOnly('"Which library?"="date-fns", "Which features?"="Parsing"'),
    ],
    [
      'an answer in the person’s own words',
      (options: string[]) => (options.includes('luxon') ? 'moment, sadly' : options[1]),
      ownWords('"Which library?"="moment, sadly", "Which features?"="Formatting"'),
    ],
    [
      'a question left unanswered',
      (options: string[]) => (options.includes('luxon') ? undefined : options[2]),
      labelsOnly('"Which features?"="Zones"'),
    ],
    ['no answer at all', () => undefined, 'The user did not answer the questions.'],
  ])('without a form, asks question by question: %s', async (_name, pick, text) => {
    const server = new McpServer({ name: 's', version: '1' });
    const seen: string[][] = [];
    const ask = new AskTools({
      answerer: () => async (question, options) => {
        seen.push([question, ...options]);
        return pick(options);
      },
    });
    ask.registerAskUserQuestion(server, { name: 'Ask' });
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    clients.push(client);
    expect(await client.callTool({ name: 'Ask', arguments: { questions } })).toEqual({
      content: [{ type: 'text', text }],
    });
    expect(seen).toEqual([
      ['Which library?', 'date-fns', 'luxon'],
      ['Which features?', 'Parsing', 'Formatting', 'Zones'],
    ]);
  });

  it('declined and dismissed forms stay error results', async () => {
    let outcome: ElicitResult = { action: 'decline' };
    const { client } = await setup(() => outcome);
    expect(await client.callTool({ name: 'AskUserQuestion', arguments: { questions } })).toEqual({
      content: [{ type: 'text', text: `The user declined to answer the question. ${DECIDE}` }],
      isError: true,
    });
    outcome = { action: 'cancel' };
    expect(await client.callTool({ name: 'AskUserQuestion', arguments: { questions } })).toEqual({
      content: [{ type: 'text', text: `The user dismissed the question without answering. ${DECIDE}` }],
      isError: true,
    });
  });

  it('sends progress while the form waits when the client gave a progress token', async () => {
    // As for ask_user: the person answers once two progress notifications have arrived, so the
    // test waits on events, not on a clock. The form is pending the whole time.
    const progress: number[] = [];
    let pending = false;
    const { client } = await setup(
      () =>
        new Promise((resolve) => {
          pending = true;
          const poll = setInterval(() => {
            if (progress.length < 2) return;
            clearInterval(poll);
            pending = false;
            resolve({ action: 'accept', content: { q1: 'luxon' } });
          }, 5);
        }),
      { progressIntervalMs: 30 },
    );
    const pendingAtProgress: boolean[] = [];
    const result = await client.callTool({ name: 'AskUserQuestion', arguments: { questions } }, undefined, {
      onprogress: (p) => {
        progress.push(p.progress);
        pendingAtProgress.push(pending);
      },
    });
    expect(result).toEqual({ content: [{ type: 'text', text: labelsOnly('"Which library?"="luxon"') }] });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(pendingAtProgress.slice(0, 2)).toEqual([true, true]);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
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

describe('registerAskUserQuestion, the standalone mount', () => {
  it('asks through the client’s elicitation, under its name, with the structuredOutput option', async () => {
    for (const structuredOutput of [undefined, true]) {
      const server = new McpServer({ name: 's', version: '1' });
      registerAskUserQuestion(server, { name: 'Ask', ...(structuredOutput ? { structuredOutput } : {}) });
      const client = new Client({ name: 'c', version: '1' }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { q1: 'b' } }));
      const [a, b] = InMemoryTransport.createLinkedPair();
      await Promise.all([server.connect(a), client.connect(b)]);
      clients.push(client);
      const [tool] = (await client.listTools()).tools;
      expect(tool?.name).toBe('Ask');
      expect(tool?.outputSchema === undefined).toBe(!structuredOutput);
      const result = await client.callTool({
        name: 'Ask',
        arguments: {
          questions: [
            {
              question: 'A or B?',
              header: 'AB',
              options: [
                { label: 'a', description: '' },
                { label: 'b', description: '' },
              ],
            },
          ],
        },
      });
      const text = 'Your questions have been answered: "A or B?"="b". You can now continue with these answers in mind.';
      expect(result).toEqual(
        structuredOutput
          ? { content: [{ type: 'text', text }], structuredContent: { answers: { 'A or B?': 'b' } } }
          : { content: [{ type: 'text', text }] },
      );
    }
  });
});

describe('structuredOutput', () => {
  const question = {
    question: 'Which library?',
    header: 'Library',
    options: [
      { label: 'date-fns', description: '' },
      { label: 'luxon', description: '' },
    ],
  };
  const answering = (content: Record<string, string>) => () => ({ action: 'accept', content }) as ElicitResult;

  it('off by default: tools/list declares no outputSchema', async () => {
    const { client } = await setup();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ask_user', 'AskUserQuestion']);
    for (const tool of tools) expect(tool, tool.name).not.toHaveProperty('outputSchema');
  });

  it('off by default: results carry text only, no structuredContent', async () => {
    const { client } = await setup(answering({ answer: 'Use Postgres', q1: 'luxon' }));
    expect(await client.callTool({ name: 'ask_user', arguments: { question: 'Which database?' } })).toEqual({
      content: [{ type: 'text', text: 'Use Postgres' }],
    });
    expect(await client.callTool({ name: 'AskUserQuestion', arguments: { questions: [question] } })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Your questions have been answered: "Which library?"="luxon". You can now continue with these answers in mind.',
        },
      ],
    });
  });

  it('on: both tools declare an output schema', async () => {
    const { client } = await setup(undefined, { structuredOutput: true });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'ask_user')?.outputSchema).toMatchObject({
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
    });
    expect(tools.find((t) => t.name === 'AskUserQuestion')?.outputSchema).toMatchObject({
      type: 'object',
      properties: { answers: { type: 'object' } },
      required: ['answers'],
    });
  });

  it('on: results carry structuredContent beside the same text', async () => {
    let content: Record<string, string> = { answer: 'Use Postgres', q1: 'luxon' };
    const { client } = await setup(() => ({ action: 'accept', content }), { structuredOutput: true });
    expect(await client.callTool({ name: 'ask_user', arguments: { question: 'Which database?' } })).toEqual({
      content: [{ type: 'text', text: 'Use Postgres' }],
      structuredContent: { answer: 'Use Postgres' },
    });
    expect(await client.callTool({ name: 'AskUserQuestion', arguments: { questions: [question] } })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Your questions have been answered: "Which library?"="luxon". You can now continue with these answers in mind.',
        },
      ],
      structuredContent: { answers: { 'Which library?': 'luxon' } },
    });
    // Nothing answered is not an error, so it too must carry structuredContent once a schema is declared.
    content = {};
    expect(await client.callTool({ name: 'AskUserQuestion', arguments: { questions: [question] } })).toEqual({
      content: [{ type: 'text', text: 'The user did not answer the questions.' }],
      structuredContent: { answers: {} },
    });
  });

  it('on: error results stay text only', async () => {
    const { client } = await setup(() => ({ action: 'decline' }), { structuredOutput: true });
    expect(await client.callTool({ name: 'ask_user', arguments: { question: 'Go on?' } })).toEqual({
      content: [{ type: 'text', text: `The user declined to answer the question. ${DECIDE}` }],
      isError: true,
    });
  });
});
