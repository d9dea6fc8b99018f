/** The suite's group of structuredOutput, off (the default) and on. */
import { describe, expect, it } from 'vitest';
import type { ElicitOutcome } from '../harness.js';
import { DECIDE, formQuestion, labelsOnly, type Suite } from './suite-context.js';

/** The question the tests of structuredOutput ask, and an outcome that answers with `content`. */
const question = formQuestion('Which library?', 'Library', [
  ['date-fns', ''],
  ['luxon', ''],
]);
const answering = (content: Record<string, string>) => () => ({ action: 'accept', content }) as ElicitOutcome;

/** structuredOutput off and on. */
export function structuredOutput<Server>(suite: Suite<Server>): void {
  describe(`structuredOutput, ${suite.harness.name}`, () => {
    byDefaultOff(suite);
    whenOn(suite);
  });
}

/** Off by default: no outputSchema listed, results are text only. */
function byDefaultOff<Server>({ setup }: Suite<Server>): void {
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
}

/** On: both tools declare an output schema, results carry structuredContent, errors stay text only. */
function whenOn<Server>({ setup }: Suite<Server>): void {
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
}
