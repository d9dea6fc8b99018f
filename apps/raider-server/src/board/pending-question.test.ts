// The one way the web board and the board app ask a person and take the reply: pageAsker puts a
// question into the page's open questions; replyToQuestion answers or declines it; the ask's
// signal withdraws it.
import { AskError } from '@raider/ask-tools/v2';
import { describe, expect, it } from 'vitest';
import { type PendingQuestion, pageAsker, replyToQuestion } from './pending-question.js';

type Open = PendingQuestion & { list: string };

/** A page's open questions, an asker on them, and how often the page was told they changed. */
function page() {
  const open = new Map<string, Open>();
  let changes = 0;
  const asker = pageAsker(
    open,
    () => {
      changes += 1;
    },
    () => ({ list: 'team' }),
  );
  return { open, asker, changes: () => changes };
}

/** The one question open in `open`. */
const only = (open: Map<string, Open>): Open => [...open.values()][0] as Open;

describe('pageAsker and replyToQuestion', () => {
  it('puts a question in the page with its extra fields; an answer resolves it and takes it out', async () => {
    const { open, asker, changes } = page();
    const asked = asker('Which colour?', ['red', 'blue'], new AbortController().signal);
    expect(open.size).toBe(1);
    expect(only(open)).toMatchObject({ question: 'Which colour?', options: ['red', 'blue'], list: 'team' });
    expect(changes()).toBe(1);
    expect(replyToQuestion(open, only(open).id, { answer: 'red' })).toBe(true);
    await expect(asked).resolves.toBe('red');
    expect(open.size).toBe(0);
    expect(changes()).toBe(2);
  });

  it('takes a blank answer as no answer', async () => {
    const { open, asker } = page();
    const asked = asker('Anything to add?', [], new AbortController().signal);
    replyToQuestion(open, only(open).id, { answer: '  \n' });
    await expect(asked).resolves.toBeUndefined();
  });

  it("rejects the ask with AskError('declined') on a decline", async () => {
    const { open, asker } = page();
    const asked = asker('Deploy now?', ['yes', 'no'], new AbortController().signal);
    replyToQuestion(open, only(open).id, { decline: true });
    await expect(asked).rejects.toSatisfy((error) => AskError.isInstance(error) && error.code === 'declined');
    expect(open.size).toBe(0);
  });

  it('is withdrawn through its signal: gone from the page, and a reply after it finds nothing open', async () => {
    const { open, asker, changes } = page();
    const controller = new AbortController();
    const asked = asker('Still there?', [], controller.signal);
    const { id } = only(open);
    controller.abort(new Error('the call was cancelled'));
    await expect(asked).rejects.toThrow('the call was cancelled');
    expect(open.size).toBe(0);
    expect(changes()).toBe(2);
    expect(replyToQuestion(open, id, { answer: 'yes' })).toBe(false);
  });

  it('answers false, changing nothing, for an id that is not open', () => {
    const { open } = page();
    expect(replyToQuestion(open, 'no-such-id', { decline: true })).toBe(false);
  });
});
