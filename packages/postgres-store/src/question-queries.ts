/**
 * The queries of a list's questions (`raider_questions`). Each runs on a connection given to it;
 * every time a question is judged by (expired, settled long enough ago to be gone) is the
 * database's clock (`now()`), so servers on machines whose clocks differ agree on it.
 */
import type { QuestionOutcome, StoredQuestion, StoredQuestionState } from '@raider/tasks-registry';
import type pg from 'pg';
import type { ListenerFeed } from './listener.js';

/** The NOTIFY channel of the questions; the payload is the list id. */
export const QUESTION_CHANNEL = 'raider_questions';

/**
 * The questions as the listener watches them: a NOTIFY per ask and settle; the heartbeat's
 * fingerprint of a list is its last number and how many of its questions are settled, so an ask
 * or a settle whose NOTIFY was lost wakes the watchers at the next check (only an ask deletes,
 * and it moves the number).
 */
export const QUESTION_FEED: ListenerFeed = {
  channel: QUESTION_CHANNEL,
  async fingerprints(client, ids) {
    const { rows } = await client.query<{ key: string; fingerprint: string }>(
      `SELECT c.list_id AS key, c.last_n::text || ':' ||
              (SELECT count(*) FROM raider_questions AS q WHERE q.list_id = c.list_id AND q.state <> 'open') AS fingerprint
       FROM raider_question_counters AS c WHERE c.list_id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.key, row.fingerprint]));
  },
};

/**
 * The columns a question is read back with (times in ms; the state as it reads now: an open one
 * past its expiry is `expired`).
 */
const COLUMNS = `q.n::text, q.asker, q.question, q.options,
  floor(extract(epoch FROM q.asked_at) * 1000)::float8 AS asked_at,
  floor(extract(epoch FROM q.expires_at) * 1000)::float8 AS expires_at,
  CASE WHEN q.state = 'open' AND q.expires_at <= now() THEN 'expired' ELSE q.state END AS state,
  q.answer, q.settled_by, q.reason,
  floor(extract(epoch FROM q.settled_at) * 1000)::float8 AS settled_at,
  q.settle_token::text`;

/** A row of {@link COLUMNS}. */
interface QuestionRow {
  n: string;
  asker: string;
  question: string;
  options: string[];
  asked_at: number;
  expires_at: number;
  state: StoredQuestionState;
  answer: string | null;
  settled_by: string | null;
  reason: string | null;
  settled_at: number | null;
  settle_token: string | null;
}

/** The question of `row`: its fields, the absent ones left out. */
function stored(row: QuestionRow): StoredQuestion {
  return {
    id: `ask_${row.n}`,
    asker: row.asker,
    question: row.question,
    options: Object.freeze([...row.options]),
    askedAt: row.asked_at,
    expiresAt: row.expires_at,
    state: row.state,
    ...(row.state === 'answered' ? { answer: row.answer } : {}),
    ...(row.settled_by === null ? {} : { settledBy: row.settled_by }),
    ...(row.reason === null ? {} : { reason: row.reason }),
    ...(row.settled_at === null ? {} : { settledAt: row.settled_at }),
  };
}

// A question still readable: settled (or expired unwritten) no longer ago than the list keeps
// them ($3); an open one expires later than now, so it is readable too.
const KEPT = `coalesce(q.settled_at, q.expires_at) > now() - $3 * interval '1 millisecond'`;

/** What {@link askQuestion} writes. */
export interface NewQuestion {
  listId: string;
  asker: string;
  question: string;
  options: readonly string[];
  expiresAt: number;
  /** The asker's token, to find the question again when the answer to its write is lost. */
  askToken: string;
}

/**
 * The ask, in one statement (`raider_ask`, see the schema): waits for the list's counter, deletes
 * what is kept no longer, checks the open bound, inserts the question and NOTIFYs the list.
 * Resolves with the question, or undefined when too many were open (nothing asked).
 */
export async function askQuestion(
  client: pg.ClientBase,
  question: NewQuestion,
  limits: { maxOpenQuestions: number; keepSettledMs: number },
): Promise<StoredQuestion | undefined> {
  const { rows } = await client.query<QuestionRow>({
    // Named, as the other statements of the questions: parsed and planned once per connection.
    name: 'raider_ask',
    text: `SELECT ${COLUMNS} FROM raider_ask($1, $2, $3, $4, to_timestamp($5::float8 / 1000), $6, $7, $8, $9) AS q`,
    values: [
      question.listId,
      question.asker,
      question.question,
      question.options,
      question.expiresAt,
      question.askToken,
      limits.maxOpenQuestions,
      limits.keepSettledMs,
      QUESTION_CHANNEL,
    ],
  });
  return rows[0] && stored(rows[0]);
}

/** The question asked with `askToken`, if it was committed. */
export async function findAsked(
  client: pg.ClientBase,
  listId: string,
  askToken: string,
): Promise<StoredQuestion | undefined> {
  const { rows } = await client.query<QuestionRow>(
    `SELECT ${COLUMNS} FROM raider_questions AS q WHERE q.list_id = $1 AND q.ask_token = $2`,
    [listId, askToken],
  );
  return rows[0] && stored(rows[0]);
}

/** A question and the token of the settle that won it (null: open, or expired unwritten). */
export interface ReadQuestion {
  question: StoredQuestion;
  settleToken: string | null;
}

/** Question `n` of the list, unless it is kept no longer (`keepMs`). */
export async function readQuestion(
  client: pg.ClientBase,
  listId: string,
  n: string,
  keepMs: number,
): Promise<ReadQuestion | undefined> {
  const { rows } = await client.query<QuestionRow>({
    name: 'raider_question',
    text: `SELECT ${COLUMNS} FROM raider_questions AS q WHERE q.list_id = $1 AND q.n = $2 AND (${KEPT})`,
    values: [listId, n, keepMs],
  });
  const row = rows[0];
  return row && { question: stored(row), settleToken: row.settle_token };
}

/** The open questions of the list (not expired), oldest first. */
export async function openQuestions(client: pg.ClientBase, listId: string): Promise<StoredQuestion[]> {
  const { rows } = await client.query<QuestionRow>({
    name: 'raider_open_questions',
    text: `SELECT ${COLUMNS} FROM raider_questions AS q
     WHERE q.list_id = $1 AND q.state = 'open' AND q.expires_at > now() ORDER BY q.n`,
    values: [listId],
  });
  return rows.map(stored);
}

/**
 * Settles question `n` with `outcome` under `settleToken`, in one statement, if it is still open
 * and not expired (a settle racing it waits for its row, then finds it settled: the first wins),
 * with the list's NOTIFY. The question as settled, or undefined when it was not open.
 */
export async function settleQuestion(
  client: pg.ClientBase,
  listId: string,
  n: string,
  outcome: QuestionOutcome,
  settleToken: string,
): Promise<StoredQuestion | undefined> {
  const { rows } = await client.query<QuestionRow>({
    name: 'raider_settle',
    text: `WITH q AS (
       UPDATE raider_questions
       SET state = $3, answer = $4, reason = $5, settled_by = $6, settled_at = now(), settle_token = $7
       WHERE list_id = $1 AND n = $2 AND state = 'open' AND expires_at > now()
       RETURNING *
     )
     SELECT ${COLUMNS} FROM q, LATERAL (SELECT pg_notify($8, $1)) AS notified`,
    values: [
      listId,
      n,
      outcome.state,
      outcome.state === 'answered' ? outcome.answer : null,
      outcome.state === 'answered' ? null : (outcome.reason ?? null),
      outcome.by ?? null,
      settleToken,
      QUESTION_CHANNEL,
    ],
  });
  return rows[0] && stored(rows[0]);
}
