// The desk of open questions (issue 28): ids unique in the process, an answer readable as often as
// asked until it expires, a wait cut by its signal leaving the question open, expiry, an answer that
// comes while nobody waits announced, a shutdown ending only its own conversation's questions.
import { AskError, type Asker } from '@raider/ask-tools/v2';
import { TaskRegistry } from '@raider/tasks-registry';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silent } from '../../log.js';
import { type OpenQuestion, QuestionDesk, QuestionDesks, type QuestionOpener } from './open-questions.js';

afterEach(() => {
  vi.useRealTimers();
});

/** An opener whose page asker is `page` (none: no page open); `away` collects announced questions. */
function opener(page?: Asker, away: OpenQuestion[] = [], agent = 'alice'): QuestionOpener {
  return {
    agent,
    registry: new TaskRegistry(),
    pages: () => page,
    answeredWhileAway: (q) => away.push(q),
    log: silent,
  };
}

/** A page that holds each question until `answer` is called. */
function heldPage() {
  let answer: (text: string) => void = () => {};
  const page: Asker = (_question, _options, signal) =>
    new Promise((resolve, reject) => {
      answer = resolve;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return { page, answer: (text: string) => answer(text) };
}

describe('QuestionDesk', () => {
  it('gives ids unique across desks and conversations, and a registry entry ask_N running', () => {
    const one = new QuestionDesk(60_000);
    const two = new QuestionDesk(60_000);
    const a = one.open('First?', [], opener());
    const b = two.open('Second?', [], opener());
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^ask_[1-9][0-9]*$/);
    expect(a.opener.registry.get(a.id)).toMatchObject({ kind: 'ask', status: 'running', description: 'First?' });
  });

  it('a wait cut by its signal leaves the question open; the answer is read as often as asked', async () => {
    const desk = new QuestionDesk(60_000);
    const { page, answer } = heldPage();
    const away: OpenQuestion[] = [];
    const entry = desk.open('Which database?', [], opener(page, away));
    const cut = new AbortController();
    const cutWait = desk.wait(entry, cut.signal);
    cut.abort(new AskError('aborted', 'deadline'));
    await expect(cutWait).rejects.toThrow('deadline');
    expect(entry.state).toBe('open');
    const waiting = desk.wait(entry, new AbortController().signal);
    answer('PostgreSQL');
    expect(await waiting).toBe('PostgreSQL');
    // A call waited: nobody is told. The answer stays readable.
    expect(away).toEqual([]);
    expect(await desk.wait(entry, new AbortController().signal)).toBe('PostgreSQL');
    expect(desk.get(entry.id)).toBe(entry);
    expect(entry.opener.registry.get(entry.id)).toMatchObject({ status: 'completed', report: 'PostgreSQL' });
  });

  it('an answer given while nobody waits is announced once', () => {
    const desk = new QuestionDesk(60_000);
    const away: OpenQuestion[] = [];
    const entry = desk.open('Ship today?', [], opener(undefined, away));
    desk.answer(entry, 'Yes');
    desk.answer(entry, 'No');
    expect(away.map((q) => q.id)).toEqual([entry.id]);
    expect(entry.answer).toBe('Yes');
  });

  it('expires a question nobody answered, and later forgets an answer nobody read', async () => {
    vi.useFakeTimers();
    const desk = new QuestionDesk(1_000);
    const open = desk.open('Tabs?', [], opener());
    const answered = desk.open('Spaces?', [], opener());
    desk.answer(answered, 'Spaces');
    vi.advanceTimersByTime(1_001);
    expect(open.state).toBe('expired');
    await expect(desk.wait(open, new AbortController().signal)).rejects.toThrow('it expired');
    expect(open.opener.registry.get(open.id)).toMatchObject({ status: 'failed', report: 'expired after 1 second' });
    // The answer was kept for another expiry span after it came, then forgotten.
    expect(desk.get(answered.id)).toBeUndefined();
  });

  it('ends only the questions of the conversation that shuts down; a decline ends a question as failed', async () => {
    const desk = new QuestionDesk(60_000);
    const mine = opener();
    const theirs = opener(undefined, [], 'bob');
    const a = desk.open('Mine?', [], mine);
    const b = desk.open('Theirs?', [], theirs);
    expect(desk.openCount(mine.registry)).toBe(1);
    desk.endAll(mine.registry, 'the server is shutting down');
    expect([a.state, b.state]).toEqual(['ended', 'open']);
    await expect(desk.wait(a, new AbortController().signal)).rejects.toThrow('the server is shutting down');
    desk.end(b, new AskError('declined'));
    expect(b.opener.registry.get(b.id)).toMatchObject({ status: 'failed' });
    expect(desk.openCount(theirs.registry)).toBe(0);
  });

  it('puts a question to a page opened after it was asked, once', () => {
    const desk = new QuestionDesk(60_000);
    let page: Asker | undefined;
    let asked = 0;
    const entry = desk.open('Later?', [], { ...opener(), pages: () => page });
    expect(entry.offered).toBe(false);
    page = () => {
      asked += 1;
      return new Promise(() => {});
    };
    desk.offer(entry);
    desk.offer(entry);
    expect(asked).toBe(1);
  });

  it('one desk per list, and one of its own for a conversation without a list', () => {
    const desks = new QuestionDesks();
    expect(desks.deskOf('list-a', 1_000)).toBe(desks.deskOf('list-a', 1_000));
    expect(desks.deskOf(undefined, 1_000)).not.toBe(desks.deskOf(undefined, 1_000));
  });

  it("one server's desks are its own: another server's desk of the same list is another, and a closed one forgets its questions", () => {
    const [mine, theirs] = [new QuestionDesks(), new QuestionDesks()];
    expect(mine.deskOf('list-a', 1_000)).not.toBe(theirs.deskOf('list-a', 1_000));
    const desk = mine.deskOf('list-a', 1_000);
    const entry = desk.open('Which?', [], opener());
    expect(desk.get(entry.id)).toBe(entry);
    mine.close();
    expect(desk.get(entry.id)).toBeUndefined();
    expect(mine.deskOf('list-a', 1_000)).not.toBe(desk);
  });
});
