/**
 * The state of one memory question store (`memoryQuestionStore`): every question not yet dropped
 * by id, the open ones in the order they were asked, the ended ones in the order they ended (so
 * that dropping them after `keepSettledMs` costs nothing per call on average), the listeners, and
 * the last id handed out.
 */
import {
  checkListener,
  checkOutcome,
  checkOutgoingQuestion,
  checkQuestionId,
  tooManyOpenError,
} from './question-checks.js';
import type {
  OutgoingQuestion,
  QuestionLimits,
  QuestionOutcome,
  SettleResult,
  StoredQuestion,
} from './question-store.js';

/** A subscription of `watch` (an object, so one function watched twice is two subscriptions). */
interface Listener {
  readonly call: () => void;
}

/**
 * Calls `listener`, so that one that throws neither stops the others nor fails the store's call:
 * its error is thrown again in a later task, as an EventTarget listener's is, not lost.
 */
function call(listener: Listener): void {
  try {
    listener.call();
  } catch (error) {
    setTimeout(() => {
      throw error;
    }, 0);
  }
}

/** The stored form of a checked question: only the contract's fields, in its order, frozen. */
function storedQuestion(question: OutgoingQuestion, id: string, askedAt: number): StoredQuestion {
  return Object.freeze({
    id,
    asker: question.asker,
    question: question.question,
    // A copy: the asker's array may change after the ask; the stored one never does.
    options: Object.freeze([...question.options]),
    askedAt,
    expiresAt: question.expiresAt,
    state: 'open',
  });
}

/** `question` settled with `outcome` at `time`: only the fields of that outcome, frozen. */
function settledQuestion(question: StoredQuestion, outcome: QuestionOutcome, time: number): StoredQuestion {
  return Object.freeze({
    ...question,
    state: outcome.state,
    ...(outcome.state === 'answered' ? { answer: outcome.answer } : {}),
    ...(outcome.by === undefined ? {} : { settledBy: outcome.by }),
    ...(outcome.state !== 'answered' && outcome.reason !== undefined ? { reason: outcome.reason } : {}),
    settledAt: time,
  });
}

/** The questions of one memory store. */
export class MemoryQuestions {
  /** Every question not yet dropped, as stored (an expired one is stored open: reads say expired). */
  private readonly questions = new Map<string, StoredQuestion>();
  /** The open questions (some perhaps expired since), in the order of their asks: oldest first. */
  private readonly opened = new Map<string, StoredQuestion>();
  /** When each ended question is dropped, in the order they ended (settled, or found expired). */
  private readonly ended = new Map<string, number>();
  private readonly listeners = new Set<Listener>();
  private lastId = 0;

  constructor(
    private readonly limits: Readonly<QuestionLimits>,
    private readonly now: () => number,
  ) {}

  async ask(question: OutgoingQuestion): Promise<StoredQuestion> {
    const time = this.now();
    checkOutgoingQuestion(question, this.limits, time);
    this.prune(time);
    if (this.opened.size >= this.limits.maxOpenQuestions) {
      // At the bound, what has expired makes room first (a full list is rare, its walk bounded).
      this.endExpired(time);
      if (this.opened.size >= this.limits.maxOpenQuestions) throw tooManyOpenError(this.limits.maxOpenQuestions);
    }
    this.lastId += 1;
    const stored = storedQuestion(question, `ask_${this.lastId}`, time);
    this.questions.set(stored.id, stored);
    this.opened.set(stored.id, stored);
    this.wake();
    return stored;
  }

  async get(id: string): Promise<StoredQuestion | undefined> {
    checkQuestionId('get', id);
    const time = this.now();
    this.prune(time);
    return this.read(id, time);
  }

  async open(): Promise<StoredQuestion[]> {
    const time = this.now();
    this.prune(time);
    this.endExpired(time);
    return [...this.opened.values()];
  }

  async settle(id: string, outcome: QuestionOutcome): Promise<SettleResult | undefined> {
    checkQuestionId('settle', id);
    checkOutcome(outcome, this.limits);
    const time = this.now();
    this.prune(time);
    const current = this.read(id, time);
    if (current === undefined) return undefined;
    if (current.state !== 'open') return { already: current };
    const settled = settledQuestion(current, outcome, time);
    this.questions.set(id, settled);
    this.opened.delete(id);
    this.ended.set(id, time + this.limits.keepSettledMs);
    this.wake();
    return { settled };
  }

  watch(listener: () => void): () => void {
    checkListener(listener);
    const subscription: Listener = { call: listener };
    this.listeners.add(subscription);
    return () => {
      this.listeners.delete(subscription);
    };
  }

  /**
   * The question `id` as it stands at `time`: expired when open past `expiresAt`, undefined (and
   * dropped) when it ended `keepSettledMs` ago or more. Checked here for each read, so a question
   * the ordered prune has not reached yet is still gone on time.
   */
  private read(id: string, time: number): StoredQuestion | undefined {
    const question = this.questions.get(id);
    if (question === undefined) return undefined;
    const expired = question.state === 'open' && time >= question.expiresAt;
    const endedAt = expired ? question.expiresAt : question.settledAt;
    if (endedAt !== undefined && time - endedAt >= this.limits.keepSettledMs) {
      this.drop(id);
      return undefined;
    }
    return expired ? Object.freeze({ ...question, state: 'expired' }) : question;
  }

  /** Drops the ended questions whose time has come, from the oldest end: stops at the first that stays. */
  private prune(time: number): void {
    for (const [id, dropAt] of this.ended) {
      if (dropAt > time) return;
      this.drop(id);
    }
  }

  /** Moves the open questions past their `expiresAt` to the ended ones (a walk of the open ones). */
  private endExpired(time: number): void {
    for (const [id, question] of this.opened) {
      if (time < question.expiresAt) continue;
      this.opened.delete(id);
      this.ended.set(id, question.expiresAt + this.limits.keepSettledMs);
    }
  }

  private drop(id: string): void {
    this.questions.delete(id);
    this.opened.delete(id);
    this.ended.delete(id);
  }

  /** Wakes the listeners, in a later microtask: outside the code that changed the list. */
  private wake(): void {
    if (this.listeners.size === 0) return;
    queueMicrotask(() => {
      for (const listener of [...this.listeners]) if (this.listeners.has(listener)) call(listener);
    });
  }
}
