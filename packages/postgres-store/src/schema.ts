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
   CREATE INDEX raider_messages_inbox ON raider_messages (list_id, recipient, id);`,
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
