/**
 * The store's tables, created and migrated by the first call of each process: versioned (one
 * row in `raider_schema`), idempotent, and safe when several servers start at once (the
 * migration runs under a transaction-scoped advisory lock). Records and states are `json`, not
 * `jsonb`: kept as written, so metadata keeps the order of its keys.
 */
import type pg from 'pg';

/** The migrations, in order: the schema's version is how many have run. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE raider_lists (
     id text PRIMARY KEY,
     high_water_mark bigint NOT NULL DEFAULT 0,
     seq bigint NOT NULL DEFAULT 0
   );
   CREATE TABLE raider_tasks (
     list_id text NOT NULL REFERENCES raider_lists (id) ON DELETE CASCADE,
     id bigint NOT NULL,
     record json NOT NULL,
     PRIMARY KEY (list_id, id)
   );
   CREATE TABLE raider_states (
     list_id text NOT NULL REFERENCES raider_lists (id) ON DELETE CASCADE,
     family text NOT NULL,
     state json NOT NULL,
     PRIMARY KEY (list_id, family)
   );
   CREATE TABLE raider_changes (
     list_id text NOT NULL REFERENCES raider_lists (id) ON DELETE CASCADE,
     seq bigint NOT NULL,
     put text[] NOT NULL,
     removed text[] NOT NULL,
     high_water_mark bigint NOT NULL,
     PRIMARY KEY (list_id, seq)
   );`,
  // The inboxes of the lists' agents (issue 27). No foreign key to raider_lists: checking one
  // takes a share lock on the list's row, so a send would wait behind every task change of its
  // list. The id orders an inbox (its sends are serialised, so ids commit in order); a take
  // reserves rows with a lease (until, and the taker's token), and only that token removes them.
  // raider_send is a send in one statement (one round trip, its plans cached per connection):
  // it waits for the inbox (an advisory lock on two 32-bit keys, a space apart from the
  // migration's 64-bit key; two inboxes whose hashes meet only wait for each other), then, each
  // statement of a volatile function seeing what committed before it began, counts what waits
  // (dropping the free messages that are too old only when that reaches the bound), and inserts
  // the message below the bound, with its NOTIFY (sent at the commit). No row: the inbox was full.
  `CREATE TABLE raider_messages (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     list_id text NOT NULL,
     recipient text NOT NULL,
     sender text,
     text text NOT NULL,
     notification boolean NOT NULL,
     about text,
     label text,
     task_id text,
     sent_at timestamptz NOT NULL DEFAULT clock_timestamp(),
     lease_until timestamptz,
     lease_token uuid,
     send_token uuid NOT NULL
   );
   CREATE INDEX raider_messages_inbox ON raider_messages (list_id, recipient, id);
   CREATE FUNCTION raider_send(
     p_list_id text, p_recipient text, p_sender text, p_text text, p_notification boolean,
     p_about text, p_label text, p_task_id text, p_send_token uuid,
     p_max_age_ms double precision, p_max_inbox_messages integer, p_channel text, p_key text
   ) RETURNS SETOF raider_messages LANGUAGE plpgsql AS $$
   DECLARE
     waiting integer;
   BEGIN
     PERFORM pg_advisory_xact_lock(hashtext(p_list_id), hashtext(p_recipient));
     SELECT count(*) INTO waiting FROM (
       SELECT 1 FROM raider_messages WHERE list_id = p_list_id AND recipient = p_recipient LIMIT p_max_inbox_messages
     ) AS kept;
     IF waiting >= p_max_inbox_messages THEN
       DELETE FROM raider_messages
       WHERE list_id = p_list_id AND recipient = p_recipient
         AND sent_at < now() - p_max_age_ms * interval '1 millisecond'
         AND (lease_until IS NULL OR lease_until <= now());
       SELECT count(*) INTO waiting FROM (
         SELECT 1 FROM raider_messages WHERE list_id = p_list_id AND recipient = p_recipient LIMIT p_max_inbox_messages
       ) AS kept;
       IF waiting >= p_max_inbox_messages THEN
         RETURN;
       END IF;
     END IF;
     PERFORM pg_notify(p_channel, p_key);
     RETURN QUERY
       INSERT INTO raider_messages (list_id, recipient, sender, text, notification, about, label, task_id, send_token)
       VALUES (p_list_id, p_recipient, p_sender, p_text, p_notification, p_about, p_label, p_task_id, p_send_token)
       RETURNING *;
   END
   $$;`,
  // The questions an agent asked a person (issue 39). The ids come from a counter of the list's
  // own (raider_question_counters), not from raider_lists: a row lock there would make an ask wait
  // behind every task change of its list, and the counter must outlive every question deleted
  // (an id is never given twice). raider_ask is an ask in one statement: it locks the list's
  // counter (asks on a list go one at a time, so the open count is exact), deletes the questions
  // settled (or expired) longer ago than the list keeps them, counts the open ones, and below the
  // bound takes the next number and inserts the question, with its NOTIFY. No row: too many open.
  // asked_at is the database's clock, kept before the caller's expires_at (clocks that differ).
  `CREATE TABLE raider_question_counters (
     list_id text PRIMARY KEY,
     last_n bigint NOT NULL DEFAULT 0
   );
   CREATE TABLE raider_questions (
     list_id text NOT NULL,
     n bigint NOT NULL,
     asker text NOT NULL,
     question text NOT NULL,
     options text[] NOT NULL,
     asked_at timestamptz NOT NULL,
     expires_at timestamptz NOT NULL,
     state text NOT NULL CHECK (state IN ('open', 'answered', 'declined', 'withdrawn', 'expired')),
     answer text,
     settled_by text,
     reason text,
     settled_at timestamptz,
     ask_token uuid NOT NULL,
     settle_token uuid,
     PRIMARY KEY (list_id, n)
   );
   CREATE FUNCTION raider_ask(
     p_list_id text, p_asker text, p_question text, p_options text[], p_expires_at timestamptz,
     p_ask_token uuid, p_max_open integer, p_keep_ms double precision, p_channel text
   ) RETURNS SETOF raider_questions LANGUAGE plpgsql AS $$
   DECLARE
     waiting integer;
     next_n bigint;
   BEGIN
     INSERT INTO raider_question_counters (list_id) VALUES (p_list_id) ON CONFLICT (list_id) DO NOTHING;
     SELECT last_n + 1 INTO next_n FROM raider_question_counters WHERE list_id = p_list_id FOR UPDATE;
     DELETE FROM raider_questions
     WHERE list_id = p_list_id AND coalesce(settled_at, expires_at) <= now() - p_keep_ms * interval '1 millisecond'
       AND (state <> 'open' OR expires_at <= now());
     SELECT count(*) INTO waiting FROM (
       SELECT 1 FROM raider_questions
       WHERE list_id = p_list_id AND state = 'open' AND expires_at > now() LIMIT p_max_open
     ) AS kept;
     IF waiting >= p_max_open THEN
       RETURN;
     END IF;
     UPDATE raider_question_counters SET last_n = next_n WHERE list_id = p_list_id;
     PERFORM pg_notify(p_channel, p_list_id);
     RETURN QUERY
       INSERT INTO raider_questions (list_id, n, asker, question, options, asked_at, expires_at, state, ask_token)
       VALUES (p_list_id, next_n, p_asker, p_question, p_options,
               least(now(), p_expires_at - interval '1 millisecond'), p_expires_at, 'open', p_ask_token)
       RETURNING *;
   END
   $$;`,
];

/** The advisory lock key of the migration (any number the application does not use otherwise). */
const MIGRATION_LOCK = 7_346_021_933;

/** Brings the schema to the latest version; several processes at once wait for each other. */
export async function migrate(client: pg.ClientBase): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS raider_schema (version integer NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM raider_schema');
    let version = rows[0]?.version ?? 0;
    if (rows.length === 0) await client.query('INSERT INTO raider_schema (version) VALUES (0)');
    for (; version < MIGRATIONS.length; version += 1) await client.query(MIGRATIONS[version] as string);
    await client.query('UPDATE raider_schema SET version = $1', [version]);
    await client.query('COMMIT');
    return version;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
