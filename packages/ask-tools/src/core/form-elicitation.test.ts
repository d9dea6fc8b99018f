import { describe, expect, it } from 'vitest';
import { callContext } from './context.js';
import { AskError } from './errors.js';
import { type FormElicitation, type FormRequest, formAsker } from './form-elicitation.js';

/** An elicitation that answers every request with `answer` (or throws it), recording the requests. */
function answering(answer: unknown, failure: FormElicitation['failure'] = () => undefined) {
  const requests: FormRequest[] = [];
  const elicitation: FormElicitation = {
    elicitInput: async (request) => {
      requests.push(request);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    failure,
  };
  return { elicitation, requests };
}

const signal = () => new AbortController().signal;
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: unknown) => (error as AskError).code,
  );

describe('formAsker', () => {
  it("asks ask_user's question as one form, related to the call, with the timeout and the call's signal", async () => {
    const { elicitation, requests } = answering({ action: 'accept', content: { answer: 'Use Postgres' } });
    const callSignal = signal();
    const answer = await callContext.run({ requestId: 7 }, () =>
      formAsker(elicitation, 1_000)('Which database?', [], callSignal),
    );
    expect(answer).toBe('Use Postgres');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.params).toMatchObject({ mode: 'form', message: 'Which database?' });
    expect(requests[0]?.options).toEqual({ timeout: 1_000, signal: callSignal, relatedRequestId: 7 });
  });

  it("asks AskUserQuestion's questions in one form, and names no request outside a call", async () => {
    const { elicitation, requests } = answering({ action: 'accept', content: { q1: 'luxon' } });
    const options = ['date-fns', 'luxon'].map((label) => ({ label, description: '' }));
    const question = { question: 'Which library?', header: 'Library', options, multiSelect: false };
    const asker = formAsker(elicitation, 1_000);
    expect(await asker.form?.([question], signal())).toEqual(['luxon']);
    // One question: the form's message is the question itself.
    expect(requests[0]?.params.message).toBe('Which library?');
    expect(requests[0]?.options).not.toHaveProperty('relatedRequestId');
  });

  it('declined and dismissed forms are AskErrors', async () => {
    expect(await codeOf(formAsker(answering({ action: 'decline' }).elicitation, 1)('q', [], signal()))).toBe(
      'declined',
    );
    expect(await codeOf(formAsker(answering({ action: 'cancel' }).elicitation, 1)('q', [], signal()))).toBe(
      'cancelled',
    );
  });

  it("the adapter's timeout and closed connection are AskErrors; any other error comes as it came", async () => {
    const failure = (error: unknown) =>
      (error as Error).message === 'slow'
        ? 'timeout'
        : (error as Error).message === 'gone'
          ? 'disconnected'
          : undefined;
    const ask = (error: Error) => formAsker(answering(error, failure).elicitation, 1)('q', [], signal());
    expect(await codeOf(ask(new Error('slow')))).toBe('timeout');
    expect(await codeOf(ask(new Error('gone')))).toBe('disconnected');
    const other = new Error('broken');
    await expect(ask(other)).rejects.toBe(other);
    expect(AskError.isInstance(await ask(new Error('slow')).catch((error: unknown) => error))).toBe(true);
  });

  it('once the call is aborted, the error comes as it came', async () => {
    const controller = new AbortController();
    controller.abort('changed my mind');
    const error = new Error('slow');
    const asker = formAsker(answering(error, () => 'timeout').elicitation, 1);
    await expect(asker('q', [], controller.signal)).rejects.toBe(error);
  });
});
