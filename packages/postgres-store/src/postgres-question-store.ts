/**
 * The questions of one list in PostgreSQL: `@raider/tasks-registry`'s `QuestionStore`, so that a
 * question an agent asked a person outlives the process that asked it (a kill -9, a restart) and
 * any server on the list sees it and can answer it. Nothing is kept in memory: every method reads
 * or writes the database.
 *
 * - An ask is one statement (`raider_ask`): it waits for the list's counter (asks on a list go one
 *   at a time, so the open bound is exact and the numbers commit in order), drops what is kept no
 *   longer, takes the next number and inserts the question with its NOTIFY; it resolves once the
 *   statement has committed (durable). The counter is a row of its own that only goes up, so an
 *   `ask_N` is never given twice, whatever is deleted.
 * - A settle is one conditional UPDATE (`WHERE state = 'open' AND expires_at > now()`): two at once
 *   on one question, from any servers, queue on its row and the second finds it settled; the
 *   loser reads the row and answers `already`.
 * - `watch` hears the list's NOTIFYs on the process's one LISTEN connection; the heartbeat makes
 *   up for one lost on the way (see `QUESTION_FEED`).
 */
import { randomUUID } from 'node:crypto';
import type {
  OutgoingQuestion,
  QuestionLimits,
  QuestionOutcome,
  QuestionStore,
  SettleResult,
  StoredQuestion,
} from '@raider/tasks-registry';
import type { Database } from './database.js';
import { DatabaseError } from './errors.js';
import type { Listener } from './listener.js';
import {
  checkId,
  checkListener,
  checkOutcome,
  checkQuestion,
  questionNumber,
  tooManyOpenError,
} from './question-checks.js';
import {
  askQuestion,
  findAsked,
  openQuestions,
  QUESTION_FEED,
  readQuestion,
  settleQuestion,
} from './question-queries.js';

// What a failed call says became of it.
const NOT_ASKED = 'the question was not asked';
const NOT_SETTLED = 'the question was not settled';
const NOT_READ = 'nothing was read';

/** The QuestionStore of one list (`PostgresList.questions`). */
export class PostgresQuestionStore implements QuestionStore {
  constructor(
    private readonly database: Database,
    private readonly listener: Listener,
    private readonly listId: string,
    private readonly limits: Readonly<QuestionLimits>,
  ) {}

  async ask(question: OutgoingQuestion): Promise<StoredQuestion> {
    checkQuestion(question, this.limits, Date.now());
    const askToken = randomUUID();
    const fields = {
      listId: this.listId,
      asker: question.asker,
      question: question.question,
      options: [...question.options],
      expiresAt: question.expiresAt,
      askToken,
    };
    let asked: StoredQuestion | undefined;
    try {
      asked = await this.database.autocommit(NOT_ASKED, (client) => askQuestion(client, fields, this.limits));
    } catch (error) {
      if (!(DatabaseError.isInstance(error) && (error as DatabaseError).mayHaveBeenSaved)) throw error;
      // The answer to the write was lost. Found by its token, the question was committed: the ask
      // is acknowledged. Not found, it may still be committing: say so.
      const found = await this.database
        .single(NOT_READ, (client) => findAsked(client, this.listId, askToken))
        .catch(() => undefined);
      if (found) return found;
      throw error;
    }
    if (!asked) throw tooManyOpenError(this.limits.maxOpenQuestions);
    return asked;
  }

  async get(id: string): Promise<StoredQuestion | undefined> {
    checkId('get', id);
    const n = questionNumber(id);
    if (n === undefined) return undefined;
    const read = await this.database.single(NOT_READ, (client) =>
      readQuestion(client, this.listId, n, this.limits.keepSettledMs),
    );
    return read?.question;
  }

  async open(): Promise<StoredQuestion[]> {
    return this.database.single(NOT_READ, (client) => openQuestions(client, this.listId));
  }

  async settle(id: string, outcome: QuestionOutcome): Promise<SettleResult | undefined> {
    checkId('settle', id);
    checkOutcome(outcome, this.limits);
    const n = questionNumber(id);
    if (n === undefined) return undefined;
    const settleToken = randomUUID();
    let settled: StoredQuestion | undefined;
    try {
      settled = await this.database.autocommit(NOT_SETTLED, (client) =>
        settleQuestion(client, this.listId, n, outcome, settleToken),
      );
    } catch (error) {
      if (!(DatabaseError.isInstance(error) && (error as DatabaseError).mayHaveBeenSaved)) throw error;
      // The answer to the write was lost: the row says whether this settle won (its token), lost
      // (another's), or is still in doubt (open: it may be committing).
      const read = await this.read(n).catch(() => undefined);
      if (read?.settleToken === settleToken) return { settled: read.question };
      if (read && read.question.state !== 'open') return { already: read.question };
      throw error;
    }
    if (settled) return { settled };
    // Not open: settled first by another, expired, or never asked (or kept no longer).
    const read = await this.read(n);
    return read && { already: read.question };
  }

  watch(listener: () => void): () => void {
    checkListener(listener);
    return this.listener.add(QUESTION_FEED, this.listId, listener);
  }

  /** Question `n` as it stands, with the token of the settle that won it. */
  private read(n: string) {
    return this.database.single(NOT_READ, (client) => readQuestion(client, this.listId, n, this.limits.keepSettledMs));
  }
}
