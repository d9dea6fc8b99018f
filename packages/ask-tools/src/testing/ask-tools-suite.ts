/**
 * The MCP-level tests of ask_user and AskUserQuestion, written once and run through every
 * harness (each adapter of this package, in each protocol era it serves) with the same golden
 * answers: Claude Code 2.1.332's wordings and raider's refusals, written out in full so that a
 * change of one character fails. Where a protocol differs, the harness says how
 * (`differences`), and the README lists it.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AskError } from '../core/errors.js';
import { UNAVAILABLE } from '../core/outcomes.js';
import type { Asker } from '../core/types.js';
import type { Connection, ElicitHandler, ElicitOutcome, Harness, ListedTool, SuiteToolsOptions } from './harness.js';

/** tools/list of the two tools as the `.` entry listed them before the v2 adapter existed. */
const golden = JSON.parse(readFileSync(new URL('./tools-list.golden.json', import.meta.url), 'utf8')) as {
  structuredOutputOff: ListedTool[];
  structuredOutputOn: ListedTool[];
};

const DECIDE = 'Decide for yourself, go on, and say in your reply what you assumed.';
const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

// Claude Code 2.1.332's wordings, written out in full: a test must fail on any change of a character.
const labelsOnly = (entries: string) =>
  `Your questions have been answered: ${entries}. You can now continue with these answers in mind.`;
const ownWords = (entries: string) =>
  `The user answered: ${entries}. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`;

/** Resolves once `condition` holds, polling on a short timer: tests wait on events, never on a clock. */
const once = (condition: () => boolean) =>
  new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (!condition()) return;
      clearInterval(poll);
      resolve();
    }, 5);
  });

/** A schema without its `$schema`. */
const undeclared = (schema: unknown) => {
  const { $schema: _schema, ...rest } = schema as Record<string, unknown>;
  return rest;
};

/** A listing without what differs between the SDKs on purpose (the dialect and `execution`). */
const withoutDifferences = (tools: ListedTool[]) =>
  tools.map(({ execution: _execution, ...tool }) => ({
    ...tool,
    inputSchema: undeclared(tool.inputSchema),
    ...(tool.outputSchema === undefined ? {} : { outputSchema: undeclared(tool.outputSchema) }),
  }));

/** What every part of the suite is given: the harness, its entry, and two ways to connect. */
interface Suite<Server> {
  harness: Harness<Server>;
  entry: Harness<Server>['entry'];
  /**
   * ask_user and AskUserQuestion on a server of the harness, answered by the client's user
   * through elicitation (when `handler`; else the client declares none).
   */
  setup: (handler?: ElicitHandler, options?: SuiteToolsOptions) => Promise<Connection>;
  /** A server with tools mounted by `mount` alone, and a client that cannot elicit. */
  mounted: (mount: (server: Server) => void) => Promise<Connection>;
}

/** The shared suite, run through `harness`. */
export function describeAskTools<Server>(harness: Harness<Server>): void {
  const { entry } = harness;
  afterEach(() => harness.closeAll());
  const suite: Suite<Server> = {
    harness,
    entry,
    setup: (handler, options = {}) =>
      harness.connect(() => {
        const server = harness.newServer();
        const answerer = entry.clientAnswerer(server);
        const ask = new entry.AskTools({ ...(answerer ? { answerer } : {}), ...options });
        ask.register(server);
        ask.registerAskUserQuestion(server);
        return server;
      }, handler),
    mounted: (mount) =>
      harness.connect(() => {
        const server = harness.newServer();
        mount(server);
        return server;
      }),
  };
  askUserThroughElicitation(suite);
  answerers(suite);
  askUserInput(suite);
  askUserQuestion(suite);
  standaloneMount(suite);
  structuredOutput(suite);
}

/** ask_user answered through the client's elicitation: answers, outcomes, timeout, cancellation, progress. */
function askUserThroughElicitation<Server>({ harness, entry, setup }: Suite<Server>): void {
  describe(`ask_user through elicitation, ${harness.name}`, () => {
    it('a free-text question: the answer is the result text', async () => {
      const { call, requests } = await setup(() => ({ action: 'accept', content: { answer: 'Use Postgres' } }));
      const result = await call('ask_user', { question: 'Which database?' });
      // Text only, no structuredContent: Claude Code would show the model that JSON instead.
      expect(result).toEqual({ content: [{ type: 'text', text: 'Use Postgres' }] });
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({
        mode: 'form',
        message: 'Which database?',
        requestedSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
      });
    });

    it('options are a single choice that also takes free text', async () => {
      let content: Record<string, string> = { choice: 'SQLite' };
      const { call, requests } = await setup(() => ({ action: 'accept', content }));
      const args = { question: 'Which database?', options: ['Postgres', 'SQLite'] };
      expect(textOf(await call('ask_user', args))).toBe('SQLite');
      const schema = requests[0]?.requestedSchema as { properties: Record<string, { oneOf?: unknown[] }> };
      expect(schema.properties.choice?.oneOf).toEqual([
        { const: 'Postgres', title: 'Postgres' },
        { const: 'SQLite', title: 'SQLite' },
      ]);
      expect(schema.properties.other).toMatchObject({ type: 'string' });
      content = { choice: 'SQLite', other: 'DuckDB, actually' };
      expect(textOf(await call('ask_user', args))).toBe('DuckDB, actually');
    });

    it.each([
      ['declined', { action: 'decline' } as ElicitOutcome, `The user declined to answer the question. ${DECIDE}`],
      [
        'cancelled',
        { action: 'cancel' } as ElicitOutcome,
        `The user dismissed the question without answering. ${DECIDE}`,
      ],
      [
        'empty',
        { action: 'accept', content: { answer: '   ' } } as ElicitOutcome,
        `The user gave no answer. ${DECIDE}`,
      ],
    ])('%s: an error result, never an answer', async (_name, outcome, text) => {
      const { call } = await setup(() => outcome);
      expect(await call('ask_user', { question: 'Go on?' })).toEqual({
        content: [{ type: 'text', text }],
        isError: true,
      });
    });

    it('an answer that comes after timeoutMs is the timed-out result', async () => {
      // The person answers long after the 100 ms allowed: on the 2025 era the call ends at the
      // timeout while the form is still open; on the 2026 era the late retry is answered so.
      const { call } = await setup(
        () =>
          new Promise((resolve) => setTimeout(() => resolve({ action: 'accept', content: { answer: 'late' } }), 400)),
        {
          timeoutMs: 100,
        },
      );
      expect(await call('ask_user', { question: 'Still there?' })).toEqual({
        content: [{ type: 'text', text: `The question timed out: no answer came within 100 ms. ${DECIDE}` }],
        isError: true,
      });
    });

    it('a client without elicitation gets the plain refusal', async () => {
      const { call } = await setup();
      expect(await call('ask_user', { question: 'Anyone?' })).toEqual({
        content: [{ type: 'text', text: UNAVAILABLE }],
        isError: true,
      });
      expect(new entry.AskTools().unavailable).toBe(UNAVAILABLE);
      expect(UNAVAILABLE).toBe(
        'Nobody can answer questions in this session: no person is at the keyboard to answer. Decide for yourself, go on, and say in your reply what you assumed.',
      );
    });

    it('cancelling the tool call aborts the question', async () => {
      let aborted: Promise<void> | undefined;
      let calls = 0;
      const { call } = await setup((_params, signal) => {
        calls += 1;
        // The first server-to-client request has id 0, whose cancellation a v1 client ignores.
        if (calls === 1) return { action: 'accept', content: { answer: 'warm-up' } };
        aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
        // The form closes when the question is withdrawn, as a client's form does: the v2 client's
        // 2026-era driver settles a cancelled call only once its elicitation handler has.
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      });
      await call('ask_user', { question: 'warm-up?' });
      const controller = new AbortController();
      const pending = call('ask_user', { question: 'Slow?' }, { signal: controller.signal });
      await vi.waitFor(() => expect(aborted).toBeDefined());
      controller.abort('changed my mind');
      await expect(pending).rejects.toBeDefined();
      await expect(aborted).resolves.toBeUndefined();
    });

    it('sends progress while waiting when the client gave a progress token', async () => {
      const progress: number[] = [];
      if (!harness.differences.serverProgressWhileAsking) {
        // The server holds no call while the person answers: the client's own driver reports its
        // round (one progress), and nothing comes from the server meanwhile.
        const { call } = await setup(() => ({ action: 'accept', content: { answer: 'ok' } }), {
          progressIntervalMs: 30,
        });
        const result = await call('ask_user', { question: 'Wait?' }, { onprogress: (p) => progress.push(p) });
        expect(textOf(result)).toBe('ok');
        expect(progress).toEqual([1]);
        return;
      }
      // The person answers once two progress notifications have reached the client, however slow
      // the machine: the test waits on events, not on a clock.
      const { call } = await setup(
        () => once(() => progress.length >= 2).then(() => ({ action: 'accept', content: { answer: 'ok' } })),
        { progressIntervalMs: 30 },
      );
      const result = await call('ask_user', { question: 'Wait?' }, { onprogress: (p) => progress.push(p) });
      expect(textOf(result)).toBe('ok');
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(new Set(progress).size).toBe(progress.length);
    });
  });
}

/** Answerers of an application's own: asked on every call, waited for, their outcomes. */
function answerers<Server>({ harness, entry, mounted }: Suite<Server>): void {
  describe(`answerers, ${harness.name}`, () => {
    it('no answerer and a client that cannot elicit: every call is refused', async () => {
      const { call } = await mounted((server) => new entry.AskTools().register(server));
      expect(await call('ask_user', { question: 'q' })).toEqual({
        content: [{ type: 'text', text: UNAVAILABLE }],
        isError: true,
      });
      const ask = new entry.AskTools();
      expect(ask.server).toBe(ask.server);
    });

    it('the answerer is asked on every call: one registered after mounting is used', async () => {
      let asker: Asker | undefined;
      const answerer = vi.fn(() => asker);
      const { call } = await mounted((server) => new entry.AskTools({ answerer }).register(server));
      expect(textOf(await call('ask_user', { question: 'q' }))).toBe(UNAVAILABLE);
      asker = async (question, options) => `${question} -> ${options.join('/') || 'free'}`;
      expect(textOf(await call('ask_user', { question: 'q', options: ['a', 'b'] }))).toBe('q -> a/b');
      asker = async () => undefined;
      expect(textOf(await call('ask_user', { question: 'q' }))).toBe(`The user gave no answer. ${DECIDE}`);
      asker = async () => '';
      expect(textOf(await call('ask_user', { question: 'q' }))).toBe(
        `The user's answer was empty, which is not an answer. ${DECIDE}`,
      );
      asker = async () => {
        throw new Error('terminal went away');
      };
      expect(textOf(await call('ask_user', { question: 'q' }))).toBe(
        `The question could not be put to the user: terminal went away. ${DECIDE}`,
      );
      expect(answerer).toHaveBeenCalledTimes(5);
    });

    it('an asker that ignores the signal still cannot block past the timeout', async () => {
      const { call } = await mounted((server) =>
        new entry.AskTools({ answerer: () => () => new Promise(() => {}), timeoutMs: 100 }).register(server),
      );
      expect(textOf(await call('ask_user', { question: 'q' }))).toBe(
        `The question timed out: no answer came within 100 ms. ${DECIDE}`,
      );
    });

    it('an answerer’s asker keeps the call alive with progress while it waits', async () => {
      const progress: number[] = [];
      const asker: Asker = () => once(() => progress.length >= 2).then(() => 'ok');
      const { call } = await mounted((server) =>
        new entry.AskTools({ answerer: () => asker, progressIntervalMs: 30 }).register(server),
      );
      expect(textOf(await call('ask_user', { question: 'q' }, { onprogress: (p) => progress.push(p) }))).toBe('ok');
      expect(progress.slice(0, 2)).toEqual([1, 2]);
    });

    it.each([
      [
        new AskError('aborted', 'the server is shutting down'),
        `The question was withdrawn: the server is shutting down. ${DECIDE}`,
      ],
      [new AskError('declined'), `The user declined to answer the question. ${DECIDE}`],
      [new AskError('disconnected'), `The client disconnected before the user answered. ${DECIDE}`],
    ])('an answerer that throws %s', async (error, text) => {
      const answerer = () => async () => {
        throw error;
      };
      const { call } = await mounted((server) => new entry.AskTools({ answerer }).register(server));
      expect(await call('ask_user', { question: 'q' })).toEqual({ content: [{ type: 'text', text }], isError: true });
    });
  });
}

/** ask_user's arguments and what tools/list shows of both tools. */
function askUserInput<Server>({ harness, setup }: Suite<Server>): void {
  describe(`ask_user input, ${harness.name}`, () => {
    it.each([
      [{}, 'Error: question: expected a question (a non-empty text), received nothing'],
      [{ question: '  ' }, 'Error: question: expected a question (a non-empty text), received "  "'],
      [{ question: 'q', options: ['a', 'a'] }, 'Error: options: expected the options to be unique, received "a" twice'],
      [{ question: 'q', options: 'a,b' }, 'Error: options: expected a list of option texts, received "a,b"'],
      [{ question: 'q', choices: ['a'] }, 'Error: unknown key "choices"'],
    ])('rejects %j', async (args, message) => {
      const { call } = await setup(() => ({ action: 'accept', content: { answer: 'x' } }));
      expect(await call('ask_user', args)).toEqual({ content: [{ type: 'text', text: message }], isError: true });
    });

    it('never echoes a huge value: a duplicated 1 MB option is described by its length', async () => {
      const { call } = await setup(() => ({ action: 'accept', content: { answer: 'x' } }));
      const big = 'o'.repeat(1_000_000);
      const result = await call('ask_user', { question: 'q', options: [big, big] });
      expect((result as { isError?: boolean }).isError).toBe(true);
      const text = textOf(result) ?? '';
      expect(text.length).toBeLessThan(300);
      expect(text).toContain('a string of 1000000 characters');
    });

    it('describes every argument, and the schema it shows is the one it checks', async () => {
      const { listTools } = await setup();
      for (const tool of await listTools()) {
        for (const [key, property] of Object.entries(tool.inputSchema.properties ?? {})) {
          expect((property as { description?: string }).description, `${tool.name}.${key}`).toMatch(/\w{3,}/);
        }
        expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
      }
    });

    it('lists both tools as read-only, not destructive, not open-world', async () => {
      const { listTools } = await setup();
      const tools = await listTools();
      for (const tool of tools) {
        expect(tool.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      }
      expect(tools.map((t) => t.name)).toEqual(['ask_user', 'AskUserQuestion']);
    });

    it('lists the tools as the . entry always has, but for the dialect and execution', async () => {
      for (const structuredOutput of [false, true]) {
        const { listTools } = await setup(undefined, { structuredOutput });
        const tools = await listTools();
        const expected = structuredOutput ? golden.structuredOutputOn : golden.structuredOutputOff;
        expect(withoutDifferences(tools)).toEqual(withoutDifferences(expected));
        for (const tool of tools) {
          expect(tool.inputSchema.$schema).toBe(harness.differences.dialect);
          if (structuredOutput)
            expect((tool.outputSchema as { $schema?: string }).$schema).toBe(harness.differences.dialect);
          expect(tool.execution).toEqual(harness.differences.execution);
        }
      }
    });

    it('an unknown tool', async () => {
      const { call } = await setup();
      const { unknownTool } = harness.differences;
      if (unknownTool.rejects) {
        await expect(call('nope', {})).rejects.toMatchObject({ code: -32602, message: unknownTool.message });
      } else {
        expect(await call('nope', {})).toEqual({ content: [{ type: 'text', text: unknownTool.text }], isError: true });
      }
    });
  });
}

/** AskUserQuestion: one form, Claude Code's wordings, question by question without a form. */
function askUserQuestion<Server>({ harness, entry, setup, mounted }: Suite<Server>): void {
  describe(`AskUserQuestion, ${harness.name}`, () => {
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

    it('asks all questions in one form, with a free-text field beside each and no "Other" option', async () => {
      const { call, requests } = await setup(() => ({
        action: 'accept',
        content: { q1: 'date-fns', q2: ['Parsing', 'Zones'] },
      }));
      await call('AskUserQuestion', { questions });
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ mode: 'form', message: 'Please answer these questions.' });
      const schema = requests[0]?.requestedSchema as { properties: Record<string, Record<string, unknown>> };
      expect(Object.keys(schema.properties)).toEqual(['q1', 'q1_other', 'q2', 'q2_other']);
      expect(schema.properties.q2).toMatchObject({
        type: 'array',
        items: { enum: ['Parsing', 'Formatting', 'Zones'] },
      });
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
      [
        'only blanks and an empty multiple choice',
        { q1_other: '   ', q2: [] },
        'The user did not answer the questions.',
      ],
    ])('through the form, %s', async (_name, content, text) => {
      const { call } = await setup(() => ({ action: 'accept', content }));
      // The whole result: text only (no structuredContent, not an error), every character as Claude Code's.
      expect(await call('AskUserQuestion', { questions })).toEqual({ content: [{ type: 'text', text }] });
    });

    it('a multiSelect label holding ", " is still an offered label', async () => {
      const { call } = await setup(() => ({ action: 'accept', content: { q1: ['Yes, please', 'Later'] } }));
      const polite = {
        question: 'Add tests?',
        header: 'Tests',
        options: [
          { label: 'Yes, please', description: '' },
          { label: 'Later', description: '' },
        ],
        multiSelect: true,
      };
      expect(await call('AskUserQuestion', { questions: [polite] })).toEqual({
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
      const seen: string[][] = [];
      const answerer = () => async (question: string, options: string[]) => {
        seen.push([question, ...options]);
        return pick(options);
      };
      const { call } = await mounted((server) =>
        new entry.AskTools({ answerer }).registerAskUserQuestion(server, { name: 'Ask' }),
      );
      expect(await call('Ask', { questions })).toEqual({ content: [{ type: 'text', text }] });
      expect(seen).toEqual([
        ['Which library?', 'date-fns', 'luxon'],
        ['Which features?', 'Parsing', 'Formatting', 'Zones'],
      ]);
    });

    it('declined and dismissed forms stay error results', async () => {
      let outcome: ElicitOutcome = { action: 'decline' };
      const { call } = await setup(() => outcome);
      expect(await call('AskUserQuestion', { questions })).toEqual({
        content: [{ type: 'text', text: `The user declined to answer the question. ${DECIDE}` }],
        isError: true,
      });
      outcome = { action: 'cancel' };
      expect(await call('AskUserQuestion', { questions })).toEqual({
        content: [{ type: 'text', text: `The user dismissed the question without answering. ${DECIDE}` }],
        isError: true,
      });
    });

    it('sends progress while the form waits when the client gave a progress token', async () => {
      const progress: number[] = [];
      const expected = { content: [{ type: 'text', text: labelsOnly('"Which library?"="luxon"') }] };
      if (!harness.differences.serverProgressWhileAsking) {
        const { call } = await setup(() => ({ action: 'accept', content: { q1: 'luxon' } }), {
          progressIntervalMs: 30,
        });
        expect(await call('AskUserQuestion', { questions }, { onprogress: (p) => progress.push(p) })).toEqual(expected);
        expect(progress).toEqual([1]);
        return;
      }
      // As for ask_user: the person answers once two progress notifications have arrived, so the
      // test waits on events, not on a clock. The form is pending the whole time.
      let pending = false;
      const pendingAtProgress: boolean[] = [];
      const { call } = await setup(
        () => {
          pending = true;
          return once(() => progress.length >= 2).then(() => {
            pending = false;
            return { action: 'accept', content: { q1: 'luxon' } };
          });
        },
        { progressIntervalMs: 30 },
      );
      const result = await call(
        'AskUserQuestion',
        { questions },
        {
          onprogress: (p) => {
            progress.push(p);
            pendingAtProgress.push(pending);
          },
        },
      );
      expect(result).toEqual(expected);
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(pendingAtProgress.slice(0, 2)).toEqual([true, true]);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    });

    it('refuses plainly without elicitation', async () => {
      const { call } = await setup();
      expect(await call('AskUserQuestion', { questions })).toEqual({
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
      const { call } = await setup(() => ({ action: 'accept', content: {} }));
      const result = await call('AskUserQuestion', args);
      expect((result as { isError?: boolean }).isError).toBe(true);
      expect(textOf(result)).toContain(message);
    });
  });
}

/** The standalone registerAskUserQuestion. */
function standaloneMount<Server>({ harness, entry }: Suite<Server>): void {
  describe(`registerAskUserQuestion, the standalone mount, ${harness.name}`, () => {
    it('asks through the client’s elicitation, under its name, with the structuredOutput option', async () => {
      for (const structuredOutput of [undefined, true]) {
        const { call, listTools } = await harness.connect(
          () => {
            const server = harness.newServer();
            entry.registerAskUserQuestion(server, { name: 'Ask', ...(structuredOutput ? { structuredOutput } : {}) });
            return server;
          },
          () => ({ action: 'accept', content: { q1: 'b' } }),
        );
        const [tool] = await listTools();
        expect(tool?.name).toBe('Ask');
        expect(tool?.outputSchema === undefined).toBe(!structuredOutput);
        const result = await call('Ask', {
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
        });
        const text = labelsOnly('"A or B?"="b"');
        expect(result).toEqual(
          structuredOutput
            ? { content: [{ type: 'text', text }], structuredContent: { answers: { 'A or B?': 'b' } } }
            : { content: [{ type: 'text', text }] },
        );
      }
    });
  });
}

/** structuredOutput off and on. */
function structuredOutput<Server>({ harness, setup }: Suite<Server>): void {
  describe(`structuredOutput, ${harness.name}`, () => {
    const question = {
      question: 'Which library?',
      header: 'Library',
      options: [
        { label: 'date-fns', description: '' },
        { label: 'luxon', description: '' },
      ],
    };
    const answering = (content: Record<string, string>) => () => ({ action: 'accept', content }) as ElicitOutcome;

    it('off by default: tools/list declares no outputSchema', async () => {
      const { listTools } = await setup();
      const tools = await listTools();
      expect(tools.map((t) => t.name)).toEqual(['ask_user', 'AskUserQuestion']);
      for (const tool of tools) expect(tool, tool.name).not.toHaveProperty('outputSchema');
    });

    it('off by default: results carry text only, no structuredContent', async () => {
      const { call } = await setup(answering({ answer: 'Use Postgres', q1: 'luxon' }));
      expect(await call('ask_user', { question: 'Which database?' })).toEqual({
        content: [{ type: 'text', text: 'Use Postgres' }],
      });
      expect(await call('AskUserQuestion', { questions: [question] })).toEqual({
        content: [{ type: 'text', text: labelsOnly('"Which library?"="luxon"') }],
      });
    });

    it('on: both tools declare an output schema', async () => {
      const { listTools } = await setup(undefined, { structuredOutput: true });
      const tools = await listTools();
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
      const { call } = await setup(() => ({ action: 'accept', content }), { structuredOutput: true });
      expect(await call('ask_user', { question: 'Which database?' })).toEqual({
        content: [{ type: 'text', text: 'Use Postgres' }],
        structuredContent: { answer: 'Use Postgres' },
      });
      expect(await call('AskUserQuestion', { questions: [question] })).toEqual({
        content: [{ type: 'text', text: labelsOnly('"Which library?"="luxon"') }],
        structuredContent: { answers: { 'Which library?': 'luxon' } },
      });
      // Nothing answered is not an error, so it too must carry structuredContent once a schema is declared.
      content = {};
      expect(await call('AskUserQuestion', { questions: [question] })).toEqual({
        content: [{ type: 'text', text: 'The user did not answer the questions.' }],
        structuredContent: { answers: {} },
      });
    });

    it('on: error results stay text only', async () => {
      const { call } = await setup(() => ({ action: 'decline' }), { structuredOutput: true });
      expect(await call('ask_user', { question: 'Go on?' })).toEqual({
        content: [{ type: 'text', text: `The user declined to answer the question. ${DECIDE}` }],
        isError: true,
      });
    });
  });
}
