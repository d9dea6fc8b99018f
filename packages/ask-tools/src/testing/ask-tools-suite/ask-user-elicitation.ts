/** The suite's group of ask_user answered through the client's elicitation. */
import { describe, expect, it, vi } from 'vitest';
import { UNAVAILABLE } from '../../core/outcomes.js';
import type { ElicitOutcome } from '../harness.js';
import { DECIDE, once, type Suite, textOf } from './suite-context.js';

/** ask_user answered through the client's elicitation: answers, outcomes, timeout, cancellation, progress. */
export function askUserThroughElicitation<Server>(suite: Suite<Server>): void {
  describe(`ask_user through elicitation, ${suite.harness.name}`, () => {
    answersAndOptions(suite);
    outcomesAndRefusal(suite);
    cancellationAndProgress(suite);
  });
}

/** A free-text answer is the result text; options are a single choice that also takes free text. */
function answersAndOptions<Server>({ setup }: Suite<Server>): void {
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
}

/** Declined, dismissed, empty and late answers are error results; a client without elicitation gets the plain refusal. */
function outcomesAndRefusal<Server>({ entry, setup }: Suite<Server>): void {
  it.each([
    ['declined', { action: 'decline' } as ElicitOutcome, `The user declined to answer the question. ${DECIDE}`],
    [
      'cancelled',
      { action: 'cancel' } as ElicitOutcome,
      `The user dismissed the question without answering. ${DECIDE}`,
    ],
    ['empty', { action: 'accept', content: { answer: '   ' } } as ElicitOutcome, `The user gave no answer. ${DECIDE}`],
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
      () => new Promise((resolve) => setTimeout(() => resolve({ action: 'accept', content: { answer: 'late' } }), 400)),
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
}

/** Cancelling the call aborts the question; progress is sent while the person answers. */
function cancellationAndProgress<Server>({ harness, setup }: Suite<Server>): void {
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
}
