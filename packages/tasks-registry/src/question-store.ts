/**
 * Where the open questions of a list live when they must outlive one process (issue 39): a
 * question an agent asked a person (ask_user, AskUserQuestion), kept by a store (memory here; a
 * list folder in @raider/file-store; PostgreSQL in @raider/postgres-store) with its asker, text,
 * options, times, state and answer, so a kill -9 or a restart loses none and any replica on the
 * list sees and answers it. The first outcome wins, atomically in each store: a second answer is
 * told who settled it first (`already`).
 *
 * Ids are the registry's `ask_N`, handed out by the store: increasing in the list, never given
 * twice (not after a restart, not by two replicas at once), so `ask_user { resume: "ask_3" }`
 * names one question for good.
 */

/** Where a question stands. `expired`: nobody settled it before `expiresAt` (whether or not that was written). */
export type StoredQuestionState = 'open' | 'answered' | 'declined' | 'withdrawn' | 'expired';

/** A question of a list, as the store keeps it. */
export interface StoredQuestion {
  /** `ask_N`: the store's id, unique in the list for good. */
  readonly id: string;
  /** The agent that asked (only it may resume; told in its inbox when the answer comes while it is not waiting). */
  readonly asker: string;
  /** The question, as the person reads it. */
  readonly question: string;
  /** The choices offered (empty: a free answer). */
  readonly options: readonly string[];
  /** When it was asked, in ms since the epoch. */
  readonly askedAt: number;
  /** When it expires unanswered, in ms since the epoch (after `askedAt`). */
  readonly expiresAt: number;
  /** Where it stands, as read at the time of the read (an open question past `expiresAt` reads `expired`). */
  readonly state: StoredQuestionState;
  /** The answer (state `answered`); `null`: the person answered with nothing (a blank answer). */
  readonly answer?: string | null;
  /** Who settled it, when known (the person a board token names, `a person at raider/board`, …). */
  readonly settledBy?: string;
  /** Why it ended without an answer (states `declined`, `withdrawn`), one line. */
  readonly reason?: string;
  /** When it was settled, in ms since the epoch (every state but `open` and an unwritten `expired`). */
  readonly settledAt?: number;
}

/** What an asker gives: the question without what the store assigns. */
export interface OutgoingQuestion {
  readonly asker: string;
  readonly question: string;
  readonly options: readonly string[];
  /** When it expires unanswered, in ms since the epoch (must be later than now). */
  readonly expiresAt: number;
}

/** How a question is settled: answered (by a person), declined, or withdrawn (the asker or a shutdown). */
export type QuestionOutcome =
  | { readonly state: 'answered'; readonly answer: string | null; readonly by?: string }
  | { readonly state: 'declined' | 'withdrawn'; readonly reason?: string; readonly by?: string };

/**
 * What a settle did: `settled` (this outcome won; the question as stored now), or `already` (an
 * outcome won before, or it expired: the question as it stands, with who settled it).
 */
export type SettleResult = { readonly settled: StoredQuestion } | { readonly already: StoredQuestion };

/** The bounds of a list's questions. */
export interface QuestionLimits {
  /** The longest question, answer or option, in characters (`text.length`; default 64 000). */
  maxTextLength: number;
  /** The most options of one question (default 100). */
  maxOptions: number;
  /** The most questions open at once in the list (default 1 000); an ask past it is refused. */
  maxOpenQuestions: number;
  /** How long a settled (or expired) question stays readable, in ms (default 1 hour): then it is gone. */
  keepSettledMs: number;
}

/** The default bounds of a list's questions. */
export const DEFAULT_QUESTION_LIMITS: Readonly<QuestionLimits> = Object.freeze({
  maxTextLength: 64_000,
  maxOptions: 100,
  maxOpenQuestions: 1_000,
  keepSettledMs: 3_600_000,
});

/**
 * The questions of one list. Every method may reject (a full disk, a lost database): a rejected
 * `ask` or `settle` was not acknowledged and changed nothing another reader can see, unless the
 * store cannot know (a connection lost after the write was sent): it then rejects with an error
 * that says the change may have been saved (postgres-store's DatabaseError, `mayHaveBeenSaved`),
 * as a MessageStore's send does. A resolved one is durable.
 *
 * A bad argument (an asker that is not a non-empty string of at most 200 characters, a text too
 * long, too many options, an `expiresAt` not after now, an outcome of another shape) makes the
 * async methods reject, never throw at once, with a RegistryArgumentError (a RegistryRangeError
 * for a number out of range, a QuestionLimitError past `maxOpenQuestions`), changing nothing;
 * `watch` throws it. `@raider/tasks-registry/conformance` checks a store against all of this.
 */
export interface QuestionStore {
  /** Stores `question` as open with the next `ask_N` of the list; resolves with it once durable. */
  ask(question: OutgoingQuestion): Promise<StoredQuestion>;
  /** The question `id` as it stands now, or undefined (never asked here, or settled longer ago than `keepSettledMs`). */
  get(id: string): Promise<StoredQuestion | undefined>;
  /** The open questions of the list (not expired), oldest first. */
  open(): Promise<StoredQuestion[]>;
  /**
   * Settles `id` with `outcome` if it is still open: the first outcome wins, atomically (two
   * replicas answering at once: one `settled`, the other `already`). Undefined when there is no
   * question `id`.
   */
  settle(id: string, outcome: QuestionOutcome): Promise<SettleResult | undefined>;
  /**
   * Calls `listener` after a question of the list is asked or settled, here or through another
   * handle on the list (another process: within the store's watch delay). Returns the unsubscribe.
   */
  watch(listener: () => void): () => void;
}
