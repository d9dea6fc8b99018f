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
