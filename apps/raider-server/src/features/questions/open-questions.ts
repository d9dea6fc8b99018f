/**
 * Questions that outlive the call that asked them (issue 28). A host cuts a call that waits too
 * long, and the person's answer was lost with it; so a question asked through ask_user is an open
 * question, kept here, on the board and in raider://work (the registry's `ask_N` entry), until a
 * person answers it, it is withdrawn, or it expires. A call waits on it until its deadline, then
 * answers that the question is still open; `ask_user { resume }` waits again or reads the answer
 * that came meanwhile, as often as it likes until the answer expires in its turn.
 *
 * One desk serves every conversation of a server on one list (`QuestionDesks`, in the server's
 * runtime): a client that reconnects (a new 2025-era session, another 2026-era request) resumes its
 * question there. Ids are unique in the process, and only the agent that asked may read the answer. Open questions live in this
 * process's memory: a restart loses them, and a resume then says so plainly (`lostText`).
 */
import { AskError, type Asker } from '@raider/ask-tools/v2';
import type { TaskRegistry } from '@raider/tasks-registry';
import type { AnsweredBy } from '../../board/pending-question.js';
import type { Logger } from '../../log.js';

/** Where a question stands. */
export type QuestionState = 'open' | 'answered' | 'ended' | 'expired';

/** Who opened a question, and where its outcome is recorded. */
export interface QuestionOpener {
  /** The agent that asked (only it may resume; told when the answer comes while it is not waiting). */
  agent: string | undefined;
  /** The registry of the conversation that asked: its `ask_N` entry. */
  registry: TaskRegistry;
  /** The pages that ask a person (the web board, the board app), when one is open. */
  pages: () => Asker | undefined;
  /** The answer came while no call waited on the question: tell its agent (an inbox notification). */
  answeredWhileAway: (question: OpenQuestion) => void;
  log: Logger;
}

/** One question, open or settled and still readable. */
export interface OpenQuestion {
  /** The registry's id, `ask_3`: what the model resumes with. Unique in the process. */
  readonly id: string;
  readonly question: string;
  readonly options: string[];
  readonly opener: QuestionOpener;
  readonly askedAt: number;
  state: QuestionState;
  /** The answer (state `answered`; `undefined`: the person gave none). */
  answer?: string | undefined;
  /** Who answered, when a board token named the person (a server with a table of agents). */
  answeredBy?: string | undefined;
  /** Why there is no answer (state `ended`: declined, withdrawn, failed). */
  error?: unknown;
  /** Calls waiting on it now. */
  waiting: number;
  /** True once a page was asked it (a page opened after the question is asked on a resume). */
  offered: boolean;
  /** True while a form the client's user may still submit is out (2025-era elicitation). */
  formPending: boolean;
  /** Aborted when the question settles or expires: withdraws its page ask and its form. */
  readonly settledSignal: AbortSignal;
}

/** How long a question nobody answered stays open by default: an hour. */
export const DEFAULT_QUESTION_EXPIRY_MS = 3_600_000;

/** The most settled questions a desk keeps for resumes (the oldest go first). */
const MAX_SETTLED = 1_000;

/** "1 hour", "90 seconds": how long a question stayed open. */
export function spanText(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} hour${ms === 3_600_000 ? '' : 's'}`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  const seconds = Math.round(ms / 1000);
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** The answer of a call whose deadline came first: not an error, the question is still open. */
export function stillOpenText(id: string): string {
  return `The question is still open as ${id}; nobody has answered yet. Call ask_user with {"resume": "${id}"} to keep waiting for the answer, or decide for yourself and say what you assumed.`;
}

/** The answer of a resume of a question that expired: plain, not an error. */
export function expiredText(id: string, expiryMs: number): string {
  return `The question ${id} expired: nobody answered it within ${spanText(expiryMs)}. Decide for yourself, go on, and say in your reply what you assumed.`;
}

/** The refusal of a resume of a question this server does not hold. */
export function lostText(id: string): string {
  return `resume: no open question ${id} on this server: it was never asked here, its answer expired, or the server restarted (open questions live in the server's memory and a restart loses them). Ask again if you still need the answer.`;
}

/** The refusal of a resume by another agent than the one that asked. */
export function notYoursText(id: string, asker: string | undefined, caller: string | undefined): string {
  const who = (name: string | undefined) => (name === undefined ? 'an agent that names none' : JSON.stringify(name));
  return `resume: ${id} was asked by ${who(asker)}, not by ${who(caller)}; only the agent that asked can read its answer`;
}

/**
 * The number of the last question id handed out. The one counter kept at module level, on
 * purpose: it holds nothing of a server, and ids must be unique in the process, not only in one
 * server's runtime. A conversation made again must not reuse one, and neither may another server
 * embedded in the same process: a resume of its `ask_1` that reaches this server must find no
 * question rather than a wrong one (test/embedded-servers.test.ts).
 */
let lastQuestion = 0;

/** The open questions of one list (or of one conversation without a list). */
export class QuestionDesk {
  private readonly questions = new Map<string, OpenQuestion>();
  /** Per question: who waits for it to settle, its page ask's and form's withdrawal, its expiry timer. */
  private readonly parts = new Map<
    string,
    { settled: Promise<void>; settle: () => void; withdraw: AbortController; timer: NodeJS.Timeout }
  >();

  /**
   * `expiryMs`: how long a question nobody answered stays open, and an answer stays readable;
   * `answeredBy`: where a page notes the person who answered (by the question's signal).
   */
  constructor(
    readonly expiryMs: number,
    private readonly answeredBy?: AnsweredBy,
  ) {}

  /** The question `id`, if this desk holds it. */
  get(id: string): OpenQuestion | undefined {
    return this.questions.get(id);
  }

  /** How many questions `registry`'s conversation opened that are still open (they keep it alive). */
  openCount(registry: TaskRegistry): number {
    let open = 0;
    for (const entry of this.questions.values())
      if (entry.state === 'open' && entry.opener.registry === registry) open += 1;
    return open;
  }

  /** Opens a question: an `ask_N` entry of the opener's registry, put to its pages, expiring on its own. */
  open(question: string, options: string[], opener: QuestionOpener): OpenQuestion {
    let id: string;
    do id = `ask_${++lastQuestion}`;
    while (opener.registry.get(id));
    let settle = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const withdraw = new AbortController();
    const entry: OpenQuestion = {
      id,
      question,
      options,
      opener,
      askedAt: Date.now(),
      state: 'open',
      waiting: 0,
      offered: false,
      formPending: false,
      settledSignal: withdraw.signal,
    };
    const timer = setTimeout(() => this.expire(entry), this.expiryMs);
    timer.unref();
    this.questions.set(id, entry);
    this.parts.set(id, { settled, settle, withdraw, timer });
    opener.registry.add({
      id,
      kind: 'ask',
      recipient: 'main',
      description: question,
      stop: () => this.end(entry, new AskError('aborted', this.stopReason)),
      promise: settled,
    });
    opener.log.debug(`${id} asked: ${question}`);
    this.offer(entry);
    return entry;
  }

  /** Puts an open question to a page, once, when one is open now (on opening, and on each resume). */
  offer(entry: OpenQuestion): void {
    if (entry.offered || entry.state !== 'open') return;
    const page = entry.opener.pages();
    if (!page) return;
    entry.offered = true;
    page(entry.question, entry.options, entry.settledSignal).then(
      (answer) => this.answer(entry, answer),
      (error: unknown) => {
        // Withdrawn by us (settled, expired): nothing to record.
        if (!entry.settledSignal.aborted) this.end(entry, error);
      },
    );
  }

  /** The reason a stop through the registry gives (the server is shutting down, ...). */
  stopReason = 'the question was withdrawn';

  /**
   * Waits for `entry` to settle: its answer, or the error of its end (declined, withdrawn). Rejects
   * with `signal`'s reason when it aborts first; the question stays open then. Reading an answer
   * does not consume it: a call whose result never reached the model loses nothing.
   */
  async wait(entry: OpenQuestion, signal: AbortSignal): Promise<string | undefined> {
    const parts = this.parts.get(entry.id);
    if (entry.state === 'open' && parts) {
      entry.waiting += 1;
      try {
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(signal.reason);
          if (signal.aborted) return onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
          parts.settled.then(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          });
        });
      } finally {
        entry.waiting -= 1;
      }
    }
    if (entry.state === 'answered') return entry.answer;
    if (entry.state === 'expired') throw new AskError('aborted', 'it expired');
    throw entry.error;
  }

  /** The person answered (through a page, or the client's form): the first outcome wins. */
  answer(entry: OpenQuestion, answer: string | undefined): void {
    // Read before close: closing aborts the signal, and the page noted its person under it.
    const person = this.answeredBy?.get(entry.settledSignal);
    if (!this.close(entry, 'answered')) return;
    entry.answer = answer;
    if (person !== undefined) entry.answeredBy = person;
    entry.opener.registry.finish(entry.id, 'completed', { report: answer ?? '(no answer)' });
    if (entry.waiting === 0) entry.opener.answeredWhileAway(entry);
  }

  /** The question ended without an answer (declined, withdrawn, failed): `error` says how. */
  end(entry: OpenQuestion, error: unknown): void {
    if (!this.close(entry, 'ended')) return;
    entry.error = error;
    const withdrawn = AskError.isInstance(error) && error.code === 'aborted';
    entry.opener.registry.finish(entry.id, withdrawn ? 'killed' : 'failed', {
      report: error instanceof Error ? error.message : String(error),
    });
  }

  /** Ends every open question `registry`'s conversation opened, with `reason` (a shutdown). */
  endAll(registry: TaskRegistry, reason: string): void {
    for (const entry of [...this.questions.values()]) {
      if (entry.state === 'open' && entry.opener.registry === registry)
        this.end(entry, new AskError('aborted', reason));
    }
  }

  /** Nobody answered in time: the question expires; an answer nobody read is forgotten. */
  private expire(entry: OpenQuestion): void {
    if (entry.state !== 'open') {
      this.forget(entry);
      return;
    }
    this.close(entry, 'expired');
    entry.opener.registry.finish(entry.id, 'failed', { report: `expired after ${spanText(this.expiryMs)}` });
  }

  /**
   * Moves an open question to `state`: settles its waiters, withdraws its page ask and form, and
   * keeps a settled answer readable for another `expiryMs`; false if it was settled already.
   */
  private close(entry: OpenQuestion, state: QuestionState): boolean {
    const parts = this.parts.get(entry.id);
    if (entry.state !== 'open' || !parts) return false;
    entry.state = state;
    clearTimeout(parts.timer);
    if (state !== 'expired') {
      parts.timer = setTimeout(() => this.expire(entry), this.expiryMs);
      parts.timer.unref();
    }
    parts.withdraw.abort(new AskError('aborted', 'it was answered elsewhere'));
    parts.settle();
    this.trim();
    return true;
  }

  /** Forgets every question and stops its timer (the server's runtime closes). */
  forgetAll(): void {
    for (const entry of [...this.questions.values()]) this.forget(entry);
  }

  private forget(entry: OpenQuestion): void {
    clearTimeout(this.parts.get(entry.id)?.timer);
    this.questions.delete(entry.id);
    this.parts.delete(entry.id);
  }

  /** Keeps at most MAX_SETTLED settled questions (the oldest go first): a resume of one gone is `lostText`. */
  private trim(): void {
    let settled = 0;
    for (const entry of this.questions.values()) if (entry.state !== 'open') settled += 1;
    for (const entry of this.questions.values()) {
      if (settled <= MAX_SETTLED) break;
      if (entry.state === 'open') continue;
      this.forget(entry);
      settled -= 1;
    }
  }
}

/**
 * The desks of one server's lists, by list id: every conversation of the server on a list shares
 * one (a client that reconnects resumes its question there). Part of the server's runtime.
 */
export class QuestionDesks {
  private readonly desks = new Map<string, QuestionDesk>();

  /** `answeredBy`: where the server's pages note who answered (its runtime's). */
  constructor(private readonly answeredBy?: AnsweredBy) {}

  /**
   * The desk of list `listId` (made on first use; it empties itself as its questions expire), or a
   * desk of its own for a conversation without a list.
   */
  deskOf(listId: string | undefined, expiryMs: number): QuestionDesk {
    if (listId === undefined) return new QuestionDesk(expiryMs, this.answeredBy);
    let desk = this.desks.get(listId);
    if (!desk) {
      desk = new QuestionDesk(expiryMs, this.answeredBy);
      this.desks.set(listId, desk);
    }
    return desk;
  }

  /** Forgets every list's questions and stops their timers (the server's runtime closes). */
  close(): void {
    for (const desk of this.desks.values()) desk.forgetAll();
    this.desks.clear();
  }
}
