// wait_for_messages at work: what waits is taken at once, else the first message to come, else
// "No messages" at the end of the wait; the take is removed once its answer was written.
import type { ServerContext } from '@modelcontextprotocol/server';
import { memoryMessageStore } from '@raider/tasks-registry';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WAIT_DEADLINE_MS } from '../../conversation/wait-deadline.js';
import { silent } from '../../log.js';
import type { AnswerWatch } from '../../transport/answer-watch.js';
import { type WaitCall, waitForMessages } from './message-wait.js';

const context = (signal = new AbortController().signal) =>
  ({ mcpReq: { id: 1, signal, _meta: undefined } }) as unknown as ServerContext;
/** A call of wait_for_messages as the pipeline hands it (the deadline of a client that is not Claude Code). */
const call = (answers?: AnswerWatch): WaitCall => ({
  request: context(),
  answers,
  deadlineMs: DEFAULT_WAIT_DEADLINE_MS,
});
const textOf = (result: { content: { text?: string }[] }) => result.content[0]?.text ?? '';

function inbox() {
  const store = memoryMessageStore();
  const taken: string[] = [];
  return {
    store: () => store,
    log: silent,
    taken: (agent: string) => void taken.push(agent),
    takenBy: taken,
  };
}

describe('waitForMessages', () => {
  it('takes what waits at once, tells of the take, and removes it once the answer is written', async () => {
    const box = inbox();
    await box.store().send({ to: 'b', from: 'a', text: 'hello', notification: false });
    const answered = Promise.resolve(true);
    const result = await waitForMessages(box, 'b', {}, call({ answered: () => answered }));
    expect(textOf(result as never)).toContain('hello');
    expect(box.takenBy).toEqual(['b']);
    await answered;
    await new Promise((resolve) => setImmediate(resolve));
    expect(await box.store().peek('b')).toEqual([]);
  });

  it('waits for the first message to come, and answers no messages when none came', async () => {
    const box = inbox();
    const waiting = waitForMessages(box, 'b', { timeoutSeconds: 5 }, call());
    setTimeout(() => void box.store().send({ to: 'b', from: 'a', text: 'late', notification: false }), 50);
    expect(textOf((await waiting) as never)).toContain('late');
    const none = await waitForMessages(box, 'b', { timeoutSeconds: 0 }, call());
    expect(none.isError).toBeUndefined();
    expect(textOf(none as never)).toMatch(/^No messages/);
  });

  it('refuses a timeoutSeconds out of range, and an unknown argument', async () => {
    const box = inbox();
    const far = await waitForMessages(box, 'b', { timeoutSeconds: 51 }, call());
    expect(textOf(far as never)).toMatch(/^Error: timeoutSeconds: expected a number from 0 to 50, received /);
    const odd = await waitForMessages(box, 'b', { seconds: 1 }, call());
    expect(textOf(odd as never)).toBe('Error: unknown argument "seconds": expected timeoutSeconds');
  });
});
