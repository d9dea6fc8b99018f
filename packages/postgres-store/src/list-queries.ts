/** The queries of a task list: its row, its tasks, its changes. Each runs on a connection given to it. */
import { oneLine } from '@raider/kit/shown-text';
import type { TaskDelta, TaskListSnapshot, TaskRecord, TaskWrite } from '@raider/todo-tools';
import type pg from 'pg';
import { DatabaseError } from './errors.js';
import type { ListenerFeed } from './listener.js';

/** The NOTIFY channel; the payload is the list id. */
export const CHANNEL = 'raider_changes';

/** The lists' changes as the listener watches them: a NOTIFY per change, a list's sequence as its fingerprint. */
export const LIST_FEED: ListenerFeed = {
  channel: CHANNEL,
  async fingerprints(client, ids) {
    const { rows } = await client.query<{ id: string; seq: string }>(
      'SELECT id, seq::text FROM raider_lists WHERE id = ANY($1::text[])',
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row.seq]));
  },
};

/** A list's row: the sequence of its last change and its high-water mark. */
export interface ListRow {
  seq: number;
  highWaterMark: number;
}

/** The list's row (its sequence and high-water mark), `FOR UPDATE` inside a transaction that changes it. */
export async function listRow(client: pg.ClientBase, id: string, forUpdate: boolean): Promise<ListRow | undefined> {
  const { rows } = await client.query<{ seq: string; high_water_mark: string }>(
    `SELECT seq, high_water_mark FROM raider_lists WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  const row = rows[0];
  return row && { seq: Number(row.seq), highWaterMark: Number(row.high_water_mark) };
}

/** The whole list. */
export async function snapshot(client: pg.ClientBase, id: string, row: ListRow | undefined): Promise<TaskListSnapshot> {
  const { rows } = await client.query<{ record: TaskRecord }>(
    'SELECT record FROM raider_tasks WHERE list_id = $1 ORDER BY id',
    [id],
  );
  return { tasks: rows.map((r) => r.record), highWaterMark: row?.highWaterMark ?? 0, seq: row?.seq ?? 0 };
}

/** What changed after `since` (undefined when the feed does not reach back that far). */
export async function delta(
  client: pg.ClientBase,
  id: string,
  row: ListRow | undefined,
  since: number,
): Promise<TaskDelta | undefined> {
  const seq = row?.seq ?? 0;
  const highWaterMark = row?.highWaterMark ?? 0;
  if (since === seq) return { seq, put: [], removed: [], highWaterMark };
  if (since < 0 || since > seq) return undefined;
  const { rows: changes } = await client.query<{ seq: string; put: string[]; removed: string[] }>(
    'SELECT seq, put, removed FROM raider_changes WHERE list_id = $1 AND seq > $2 ORDER BY seq',
    [id, since],
  );
  // The feed must reach back to the change right after `since`.
  if (changes.length === 0 || Number((changes[0] as { seq: string }).seq) !== since + 1) return undefined;
  const ids = new Set<string>();
  for (const change of changes) for (const changed of [...change.put, ...change.removed]) ids.add(changed);
  const { rows } = await client.query<{ id: string; record: TaskRecord }>(
    'SELECT id, record FROM raider_tasks WHERE list_id = $1 AND id = ANY($2::bigint[])',
    [id, [...ids]],
  );
  const found = new Set(rows.map((r) => String(r.id)));
  return {
    seq,
    put: rows.map((r) => r.record),
    removed: [...ids].filter((changed) => !found.has(changed)),
    highWaterMark,
  };
}

/**
 * Where the first U+0000 of `records` is, as `task #3: subject` and its index, or undefined.
 * PostgreSQL's text (and so a task's jsonb record) cannot hold it: a key or a string anywhere in
 * a record (metadata included) is looked at, without recursion.
 */
export function nulInRecords(records: readonly TaskRecord[]): { field: string; at: number } | undefined {
  for (const record of records) {
    const pending: [string, unknown][] = Object.entries(record);
    for (let index = 0; index < pending.length; index += 1) {
      const [path, value] = pending[index] as [string, unknown];
      // The path names keys a model chose: shown on one line, so it cannot add lines of its own.
      const where = `task #${record.id}: ${oneLine(path)}`;
      const at = typeof value === 'string' ? value.indexOf('\u0000') : -1;
      if (at >= 0) return { field: where, at };
      if (value === null || typeof value !== 'object') continue;
      for (const [key, inner] of Object.entries(value)) {
        const inKey = key.indexOf('\u0000');
        if (inKey >= 0) return { field: `${where}: a key`, at: inKey };
        pending.push([Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`, inner]);
      }
    }
  }
  return undefined;
}

/**
 * Writes `write` as the list's next change (inside the transaction holding the list's row lock);
 * its sequence. A record holding U+0000 is refused before the database (a DatabaseError naming the
 * field; nothing was changed), where PostgreSQL would refuse the statement with less to go on.
 */
export async function commit(
  client: pg.ClientBase,
  id: string,
  row: ListRow,
  write: TaskWrite,
  keep: number,
): Promise<number> {
  const nul = nulInRecords(write.put);
  if (nul) {
    throw new DatabaseError(
      `${nul.field}: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at ${nul.at}; nothing was changed`,
    );
  }
  const seq = row.seq + 1;
  const highWaterMark = Math.max(row.highWaterMark, write.highWaterMark, ...write.removed.map(Number));
  if (write.put.length) {
    await client.query(
      `INSERT INTO raider_tasks (list_id, id, record)
       SELECT $1, (r->>'id')::bigint, r FROM json_array_elements($2::json) AS r
       ON CONFLICT (list_id, id) DO UPDATE SET record = excluded.record`,
      [id, JSON.stringify(write.put)],
    );
  }
  if (write.removed.length) {
    await client.query('DELETE FROM raider_tasks WHERE list_id = $1 AND id = ANY($2::bigint[])', [id, write.removed]);
  }
  await client.query('UPDATE raider_lists SET seq = $2, high_water_mark = $3 WHERE id = $1', [id, seq, highWaterMark]);
  await client.query(
    'INSERT INTO raider_changes (list_id, seq, put, removed, high_water_mark) VALUES ($1, $2, $3, $4, $5)',
    [id, seq, write.put.map((record) => record.id), write.removed, highWaterMark],
  );
  // The feed keeps what a reconnecting server needs: the latest `keep` changes.
  if (seq % 100 === 0)
    await client.query('DELETE FROM raider_changes WHERE list_id = $1 AND seq <= $2', [id, seq - keep]);
  await client.query('SELECT pg_notify($1, $2)', [CHANNEL, id]);
  return seq;
}

/** Inside a transaction: the list's row, created when missing, locked for the rest of it. */
export async function lockedListRow(client: pg.ClientBase, id: string): Promise<ListRow> {
  await client.query('INSERT INTO raider_lists (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [id]);
  return (await listRow(client, id, true)) as ListRow;
}
