/** The suite's group of AskUserQuestion: one form, Claude Code's wordings, question by question without a form. */
import { describe, expect, it } from 'vitest';
import { UNAVAILABLE } from '../../core/outcomes.js';
import type { ElicitOutcome } from '../harness.js';
import { DECIDE, formQuestion, labelsOnly, once, ownWords, type Suite, textOf } from './suite-context.js';

/** The two questions most tests ask: a single choice and a multiple one. */
const questions = [
  formQuestion(
    'Which library?',
    'Library',
    [
      ['date-fns', 'small, functional'],
      ['luxon', 'time zones'],
    ],
    false,
  ),
  formQuestion(
    'Which features?',
    'Features',
    [
      ['Parsing', ''],
      ['Formatting', ''],
      ['Zones', ''],
    ],
    true,
  ),
];

/** A question of `labels` (default a and b), without descriptions. */
const q = (question: string, labels = ['a', 'b']) =>
  formQuestion(
    question,
    'H',
    labels.map((label) => [label, '']),
  );

/** AskUserQuestion: one form, Claude Code's wordings, question by question without a form. */
export function askUserQuestion<Server>(suite: Suite<Server>): void {
  describe(`AskUserQuestion, ${suite.harness.name}`, () => {
    oneForm(suite);
    throughTheForm(suite);
    labelsAndNoForm(suite);
    refusalsAndProgress(suite);
    plainRefusalAndInput(suite);
  });
}

/** All questions in one form, a free-text field beside each, no "Other" option. */
function oneForm<Server>({ setup }: Suite<Server>): void {
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
}

/** Each way a form can be answered, worded as Claude Code words it. */
function throughTheForm<Server>({ setup }: Suite<Server>): void {
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
    const { call } = await setup(() => ({ action: 'accept', content }));
    // The whole result: text only (no structuredContent, not an error), every character as Claude Code's.
    expect(await call('AskUserQuestion', { questions })).toEqual({ content: [{ type: 'text', text }] });
  });
}

/** A label holding ", " is still a label; without a form, question by question through the answerer. */
function labelsAndNoForm<Server>({ entry, setup, mounted }: Suite<Server>): void {
  it('a multiSelect label holding ", " is still an offered label', async () => {
    const { call } = await setup(() => ({ action: 'accept', content: { q1: ['Yes, please', 'Later'] } }));
    const polite = formQuestion(
      'Add tests?',
      'Tests',
      [
        ['Yes, please', ''],
        ['Later', ''],
      ],
      true,
    );
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
}

/** Declined and dismissed forms are error results; progress is sent while the form waits. */
function refusalsAndProgress<Server>({ harness, setup }: Suite<Server>): void {
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
}

/** No elicitation: the plain refusal; and every way its input is refused. */
function plainRefusalAndInput<Server>({ setup }: Suite<Server>): void {
  it('refuses plainly without elicitation', async () => {
    const { call } = await setup();
    expect(await call('AskUserQuestion', { questions })).toEqual({
      content: [{ type: 'text', text: UNAVAILABLE }],
      isError: true,
    });
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
}
