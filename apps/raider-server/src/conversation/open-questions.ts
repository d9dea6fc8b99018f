/**
 * Questions that outlive the call that asked them (issue 28). A host cuts a call that waits too
 * long, and the person's answer was lost with it; so a question asked through ask_user is an open
 * question of the conversation, kept here, on the board and in raider://work (the registry's
 * `ask_N` entry), until a person answers it, it is withdrawn, or it expires. A call waits on it
 * until its deadline, then answers that the question is still open; `ask_user { resume }` waits
 * again or takes the answer that came meanwhile.
 *
 * Open questions live in this process's memory: a restart of the server loses them, and a resume
 * then says so plainly (see `lostText`).
 */
import { AskError, type Asker } from '@raider/ask-tools/v2';
import type { TaskRegistry } from '@raider/tasks-registry';
import type { Logger } from '../log.js';

/** Where an open question stands. */
export type QuestionState = 'open' | 'answered' | 'ended' | 'expired';

/** One question of the conversation, open or settled and not yet read. */
export interface OpenQuestion {
  /** The registry's id, `ask_3`: what the model resumes with. */
  readonly id: string;
  readonly question: string;
  readonly options: string[];
  /** The agent that asked (told when the answer comes while it is not waiting), if one is named. */
  readonly agent: string | undefined;
  readonly askedAt: number;
  state: QuestionState;
  /** The answer (state `answered`; `undefined`: the person gave none). */
  answer?: string | undefined;
  /** Why there is no answer (state `ended`: declined, withdrawn, failed). */
  error?: unknown;
  /** Calls waiting on it now. */
  waiting: number;
}

/** What the desk is made with. */
export interface QuestionDeskOptions {
  /** How long a question stays open with nobody answering, in ms (`--question-expiry`, default 1 h). */
  expiryMs: number;
  /** The pages that ask a person (the web board, the board app), asked once per question. */
  pages: () => Asker | undefined;
  /** The answer came while no call waited on the question: tell its agent (an inbox notification). */
  answeredWhileAway: (question: OpenQuestion) => void;
  log: Logger;
}

/** How long a question nobody answered stays open by default: an hour. */
export const DEFAULT_QUESTION_EXPIRY_MS = 3_600_000;

/** The most settled questions kept for a resume after they were settled (expired ones, mostly). */
const MAX_SETTLED = 1_000;

/** The withdrawal a settled question's page ask gets: it was answered elsewhere. */
const answeredElsewhere = () => new AskError('aborted', 'it was answered elsewhere');

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

/** The refusal of a resume of a question this conversation does not hold. */
export function lostText(id: string): string {
  return `resume: no open question ${id} in this conversation: it was never asked here, its answer was already read, or the server restarted (open questions live in the server's memory and a restart loses them). Ask again if you still need the answer.`;
}

/** The open questions of one conversation. */
export class QuestionDesk {
  private readonly questions = new Map<string, OpenQuestion>();
  /** Per question: who waits for its settling, its page ask's withdrawal, its expiry timer. */
  private readonly parts = new Map<
    string,
    { settled: Promise<void>; settle: () => void; withdrawPage: AbortController; timer: NodeJS.Timeout }
  >();

  constructor(
    private readonly registry: TaskRegistry,
    private readonly options: QuestionDeskOptions,
  ) {}

  /** The question `id`, if this conversation holds it. */
  get(id: string): OpenQuestion | undefined {
    return this.questions.get(id);
  }

  /** How long a question stays open. */
  get expiryMs(): number {
    return this.options.expiryMs;
  }

  /** Opens a question: an `ask_N` entry of the registry, put to the pages once, expiring on its own. */
  open(question: string, options: string[], agent: string | undefined): OpenQuestion {
    const id = this.registry.nextId('ask');
    const entry: OpenQuestion = { id, question, options, agent, askedAt: Date.now(), state: 'open', waiting: 0 };
    let settle = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const withdrawPage = new AbortController();
    const timer = setTimeout(() => this.expire(entry), this.options.expiryMs);
    timer.unref();
    this.questions.set(id, entry);
    this.parts.set(id, { settled, settle, withdrawPage, timer });
    this.registry.add({
      id,
      kind: 'ask',
      recipient: 'main',
      description: question,
      stop: () => this.end(entry, new AskError('aborted', this.stopReason)),
      promise: settled,
    });
    this.options.log.debug(`${id} asked: ${question}`);
    const page = this.options.pages();
    if (page) {
      page(question, options, withdrawPage.signal).then(
        (answer) => this.answer(entry, answer),
        (error: unknown) => {
          // Withdrawn by us (answered elsewhere, expired): nothing to record.
          if (!withdrawPage.signal.aborted) this.end(entry, error);
        },
      );
    }
    return entry;
  }

  /** The reason a stop through the registry gives (the server is shutting down, ...). */
  stopReason = 'the question was withdrawn';

  /**
   * Waits for `entry` to settle: its answer, or the error of its end (declined, withdrawn,
   * expired as an AskError `aborted`). Rejects with `signal`'s reason when it aborts first; the
   * question stays open then.
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
    return this.read(entry);
  }

  /** A settled question's outcome, handed to the call that reads it (the question is then forgotten). */
  private read(entry: OpenQuestion): string | undefined {
    if (entry.state === 'answered') {
      this.forget(entry);
      return entry.answer;
    }
    if (entry.state === 'expired') throw new AskError('aborted', 'it expired');
    this.forget(entry);
    throw entry.error;
  }

  /** The person answered (through a page, or the client's elicitation): the first outcome wins. */
  answer(entry: OpenQuestion, answer: string | undefined): void {
    if (!this.close(entry, 'answered')) return;
    entry.answer = answer;
    this.registry.finish(entry.id, 'completed', { report: answer ?? '(no answer)' });
    if (entry.waiting === 0) this.options.answeredWhileAway(entry);
  }

  /** The question ended without an answer (declined, withdrawn, failed): `error` says how. */
  end(entry: OpenQuestion, error: unknown): void {
    if (!this.close(entry, 'ended')) return;
    entry.error = error;
    const withdrawn = AskError.isInstance(error) && error.code === 'aborted';
    this.registry.finish(entry.id, withdrawn ? 'killed' : 'failed', {
      report: error instanceof Error ? error.message : String(error),
    });
  }

  /** Ends every open question with `reason` (the server is shutting down). */
  endAll(reason: string): void {
    for (const entry of [...this.questions.values()]) {
      if (entry.state === 'open') this.end(entry, new AskError('aborted', reason));
    }
  }

  private expire(entry: OpenQuestion): void {
    if (!this.close(entry, 'expired')) return;
    this.registry.finish(entry.id, 'failed', { report: `expired after ${spanText(this.options.expiryMs)}` });
  }

  /** Moves an open question to `state`: settles its waiters, withdraws its page ask; false if it was settled. */
  private close(entry: OpenQuestion, state: QuestionState): boolean {
    const parts = this.parts.get(entry.id);
    if (entry.state !== 'open' || !parts) return false;
    entry.state = state;
    clearTimeout(parts.timer);
    parts.withdrawPage.abort(answeredElsewhere());
    parts.settle();
    this.trim();
    return true;
  }

  private forget(entry: OpenQuestion): void {
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
