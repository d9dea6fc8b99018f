// The questions of a list in PostgreSQL: the QuestionStore contract of @raider/tasks-registry, with
// two openPostgresLists handles on one database as two server processes, and what only a database
// store has to prove: settles racing across pools, ids that never go back (a restart, deletions),
// the open bound under concurrent asks, a NOTIFY lost, a lost answer, the previous schema.
import { randomUUID } from 'node:crypto';
import {
  type OutgoingQuestion,
  QuestionLimitError,
  type QuestionStore,
  RegistryArgumentError,
} from '@raider/tasks-registry';
import { describeQuestionStoreConformance } from '@raider/tasks-registry/conformance';
import { describe, expect, inject, it } from 'vitest';
import { openPostgresLists } from '../src/index.js';
import { MIGRATIONS } from '../src/schema.js';
import { openLists as open } from './opened-lists.js';
import { commitLosingProxy, freshDatabase, runSql } from './postgres-faults.js';

const url = inject('databaseUrl');

// Each handle its own pool and LISTEN connection, as another server process would have.
describeQuestionStoreConformance(
  'PostgresList.questions',
  ({ limits }) => {
    const id = `questions-${randomUUID()}`;
    const handles = [openPostgresLists({ connectionString: url, questionLimits: limits })];
    return {
      store: (handles[0] as ReturnType<typeof openPostgresLists>).list(id).questions,
      other: async () => {
        const other = openPostgresLists({ connectionString: url, questionLimits: limits });
        handles.push(other);
        return other.list(id).questions;
      },
      close: async () => {
        await Promise.all(handles.map((handle) => handle.close()));
      },
    };
  },
  { describe, it, expect },
);

/** A question of `asker` that expires in a minute. */
const asking = (question: string, asker = 'ada'): OutgoingQuestion => ({
  asker,
  question,
  options: [],
  expiresAt: Date.now() + 60_000,
});

describe('the questions in PostgreSQL', () => {
  it('settles racing from two servers: exactly one wins, every other is told the winner', async () => {
    const id = `race-${randomUUID()}`;
    const stores = [open().list(id).questions, open().list(id).questions];
    const asked = await (stores[0] as QuestionStore).ask(asking('ship it?'));
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (stores[index % 2] as QuestionStore).settle(asked.id, {
          state: 'answered',
          answer: `answer ${index}`,
          by: `person ${index}`,
        }),
      ),
    );
    const won = results.filter((result) => result !== undefined && 'settled' in result);
    expect(won).toHaveLength(1);
    const winner = (won[0] as { settled: { answer?: string | null; settledBy?: string } }).settled;
    for (const result of results) {
      const seen = result && ('settled' in result ? result.settled : result.already);
      expect(seen).toMatchObject({ state: 'answered', answer: winner.answer, settledBy: winner.settledBy });
    }
    const rows = await runSql(url, 'SELECT state, answer FROM raider_questions WHERE list_id = $1', [id]);
    expect(rows).toEqual([{ state: 'answered', answer: winner.answer }]);
  });

  it('ids go up across servers and restarts, and are not given again after the questions are deleted', async () => {
    const id = `ids-${randomUUID()}`;
    const keep = { questionLimits: { keepSettledMs: 100 } };
    const first = open(keep).list(id).questions;
    const second = open(keep).list(id).questions;
    const asked = await Promise.all(
      Array.from({ length: 6 }, (_, index) => (index % 2 ? first : second).ask(asking(`q${index}`))),
    );
    expect(asked.map((question) => question.id).sort()).toEqual(['ask_1', 'ask_2', 'ask_3', 'ask_4', 'ask_5', 'ask_6']);
    for (const question of asked) await first.settle(question.id, { state: 'withdrawn', reason: 'shutdown' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A new process on the list: the next ask deletes the settled ones and takes the next number.
    const restarted = open(keep).list(id).questions;
    expect((await restarted.ask(asking('after'))).id).toBe('ask_7');
    const rows = await runSql(url, 'SELECT n::int FROM raider_questions WHERE list_id = $1', [id]);
    expect(rows).toEqual([{ n: 7 }]);
    expect(await restarted.get('ask_1')).toBeUndefined();
  });

  it('concurrent asks from two servers to a nearly full list: exactly as many as fit are open', async () => {
    const id = `full-${randomUUID()}`;
    const limits = { questionLimits: { maxOpenQuestions: 4 } };
    const stores = [open(limits).list(id).questions, open(limits).list(id).questions];
    await (stores[0] as QuestionStore).ask(asking('q0'));
    const answers = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) => (stores[index % 2] as QuestionStore).ask(asking(`q${index + 1}`))),
    );
    const refused = answers.filter((answer) => answer.status === 'rejected');
    expect(answers.length - refused.length).toBe(3);
    for (const answer of refused) expect(QuestionLimitError.isInstance(answer.reason)).toBe(true);
    const waiting = await (stores[1] as QuestionStore).open();
    expect(waiting.map((question) => question.id)).toEqual(['ask_1', 'ask_2', 'ask_3', 'ask_4']);
  });

  it('a settle whose NOTIFY never came is heard at the next heartbeat', async () => {
    const id = `no-notify-${randomUUID()}`;
    const store = open({ heartbeatMs: 200 }).list(id).questions;
    const asked = await store.ask(asking('quiet?'));
    const calls: number[] = [];
    store.watch(() => calls.push(Date.now()));
    await expect.poll(() => calls.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const settledAt = Date.now();
    // A settle with no NOTIFY, as when the notification was lost on the way.
    await runSql(url, "UPDATE raider_questions SET state = 'declined', settled_at = now() WHERE list_id = $1", [id]);
    await expect.poll(() => calls.some((at) => at >= settledAt), { timeout: 20_000, interval: 50 }).toBe(true);
    expect((await store.get(asked.id))?.state).toBe('declined');
  });

  it('an ask whose answer is lost after it committed is found by its token and acknowledged, stored once', async () => {
    const proxy = await commitLosingProxy(url);
    try {
      const id = `lost-answer-${randomUUID()}`;
      const store = open({ connectionString: proxy.url }).list(id).questions;
      await store.ask(asking('before'));
      proxy.loseNextAnswerTo(/raider_ask/);
      const asked = await store.ask(asking('during'));
      expect(asked).toMatchObject({ id: 'ask_2', question: 'during', state: 'open' });
      expect(await open().list(id).questions.open()).toEqual([expect.objectContaining({ id: 'ask_1' }), asked]);
    } finally {
      await proxy.close();
    }
  });

  it('a settle whose answer is lost after it committed is told it won, by its token in the row', async () => {
    const proxy = await commitLosingProxy(url);
    try {
      const id = `lost-settle-${randomUUID()}`;
      const store = open({ connectionString: proxy.url }).list(id).questions;
      const asked = await store.ask(asking('lost?'));
      proxy.loseNextAnswerTo(/raider_settle/);
      const result = await store.settle(asked.id, { state: 'answered', answer: 'yes', by: 'dana' });
      expect(result).toEqual({ settled: await open().list(id).questions.get(asked.id) });
      expect(result && 'settled' in result ? result.settled : undefined).toMatchObject({
        answer: 'yes',
        settledBy: 'dana',
      });
      const again = await store.settle(asked.id, { state: 'declined' });
      expect(again && 'already' in again ? again.already.answer : undefined).toBe('yes');
    } finally {
      await proxy.close();
    }
  });

  it('a database made by the previous version (tasks and inboxes) gets the questions at the first call', async () => {
    const database = await freshDatabase(url);
    try {
      await runSql(
        database.url,
        `${MIGRATIONS[0]}; ${MIGRATIONS[1]}; CREATE TABLE raider_schema (version integer NOT NULL);
        INSERT INTO raider_schema (version) VALUES (2)`,
      );
      const lists = open({ connectionString: database.url });
      await lists.list('old').messages.send({ to: 'bob', text: 'still here', notification: false });
      const asked = await lists.list('old').questions.ask(asking('new table?'));
      expect(asked.id).toBe('ask_1');
      expect(await lists.list('old').questions.open()).toEqual([asked]);
      expect(await runSql(database.url, 'SELECT version FROM raider_schema')).toEqual([{ version: MIGRATIONS.length }]);
      await lists.close();
    } finally {
      await database.drop();
    }
  });

  it('U+0000, which PostgreSQL cannot store, is refused before the database', async () => {
    const store = open().list(`nul-${randomUUID()}`).questions;
    const refused = await store.ask(asking('a\u0000b')).catch((caught: unknown) => caught);
    expect(RegistryArgumentError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toBe(
      "ask: question: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at 1",
    );
    const asked = await store.ask(asking('fine'));
    await expect(store.settle(asked.id, { state: 'answered', answer: '\u0000' })).rejects.toThrow(
      'settle: answer: expected no U+0000 character',
    );
    expect((await store.get(asked.id))?.state).toBe('open');
  });

  it('questionLimits are checked when the lists are opened', () => {
    expect(() => openPostgresLists({ connectionString: url, questionLimits: { maxOptions: 0 } })).toThrow(
      'openPostgresLists: questionLimits.maxOptions: expected a positive integer, received 0',
    );
  });
});
