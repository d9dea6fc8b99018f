/**
 * One LISTEN connection per process: a NOTIFY on the channel (its payload a list id) wakes that
 * list's watchers. The connection is made when the first watcher comes and kept up until the last
 * one goes, and it is checked, because a NOTIFY is lost while it is down and a connection can die
 * without a word (its peer frozen, a network that drops packets):
 *
 * - every `heartbeatMs` it runs one query, the sequences of the watched lists: a list whose
 *   sequence moved since the last check has its watchers woken (so a change is heard even when
 *   its NOTIFY never came), and no answer within `heartbeatTimeoutMs` means the connection is
 *   dead: it is dropped and made again (TCP keepalive backs this up at the OS level);
 * - when it comes back every watcher is woken (each catches up from the changes table, which is
 *   the truth), after a pause that starts at 100 ms and doubles up to 1 s, so changes are heard
 *   within about a second of the database being back, whatever the outage's length;
 * - `onStatus` is told once when it is lost and once when it is back.
 */
import type { Socket } from 'node:net';
import pg from 'pg';
import { describeTarget, isConnectionError, seconds } from './database.js';

/** The first pause before connecting again, in ms; it doubles up to {@link LONGEST_PAUSE_MS}. */
const FIRST_PAUSE_MS = 100;
/** The longest pause between two attempts: the database is heard again within it once it is back. */
const LONGEST_PAUSE_MS = 1000;

/** The settings of a {@link Listener}. */
export interface ListenerSettings {
  /** How often the connection is checked and the watched lists' sequences compared, in ms. */
  heartbeatMs: number;
  /** How long a check may go unanswered before the connection is taken for dead, in ms. */
  heartbeatTimeoutMs: number;
  /** How long to wait for the connection to be made, in ms. */
  connectTimeoutMs: number;
  /** Told when the connection is lost (`lost`) and when it is back (`back`); never the password. */
  onStatus?: ((message: string, kind: 'lost' | 'back') => void) | undefined;
}

/** Ends `client` without waiting on a peer that may never answer. */
function drop(client: pg.Client): void {
  // node-postgres' socket (not in its types): destroyed, it ends the client at once.
  (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
  client.end().catch(() => {});
}

/** The LISTEN side of the store. */
export class Listener {
  private readonly watchers = new Map<string, Set<() => void>>();
  // The sequence of each watched list at the last check (a list not in it has not been checked).
  private readonly seen = new Map<string, number>();
  private readonly target: string;
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private pause = FIRST_PAUSE_MS;
  // When the connection was lost (or first failed to be made), until it is back.
  private lostAt: number | undefined;
  // When the connection last answered (made, or a check answered): a silent one may be dead since.
  private answeredAt = 0;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly settings: ListenerSettings,
  ) {
    this.target = describeTarget(connectionString);
  }

  /** Calls `onChange` on every NOTIFY for `listId` (and after a reconnect); returns a function that stops it. */
  add(listId: string, onChange: () => void): () => void {
    let set = this.watchers.get(listId);
    if (!set) {
      set = new Set();
      this.watchers.set(listId, set);
    }
    set.add(onChange);
    this.ensure();
    return () => {
      set.delete(onChange);
      if (set.size === 0 && this.watchers.get(listId) === set) {
        this.watchers.delete(listId);
        this.seen.delete(listId);
      }
      if (this.watchers.size === 0) void this.disconnect();
    };
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.closed = true;
    this.watchers.clear();
    await this.disconnect();
  }

  private ensure(): void {
    if (this.closed || this.client || this.connecting || this.retry) return;
    this.connecting = this.connect().finally(() => {
      this.connecting = undefined;
    });
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: this.settings.connectTimeoutMs,
      keepAlive: true,
      // What pg_stat_activity shows, unless the connection string names the application.
      fallback_application_name: 'raider-postgres-store listen',
    });
    const lost = (error?: unknown) => {
      if (this.client !== client) return;
      this.lose(client, `the LISTEN connection was lost (${error instanceof Error ? error.message : 'it ended'})`);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => this.wake(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      drop(client);
      this.reportLost(`the LISTEN connection could not be made (${error instanceof Error ? error.message : error})`);
      this.scheduleRetry();
      return;
    }
    if (this.closed || this.watchers.size === 0) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.answeredAt = Date.now();
    this.pause = FIRST_PAUSE_MS;
    // Where every list is now, so the checks that follow wake only the lists that move after it.
    this.seen.clear();
    await this.sequences(client, false).catch(() => undefined);
    if (this.client !== client) return;
    if (this.lostAt !== undefined) {
      this.status(
        `the LISTEN connection is back after ${seconds(Date.now() - this.lostAt)}; every list is caught up`,
        'back',
      );
      this.lostAt = undefined;
    }
    // Whatever was notified while no connection listened: every watcher catches up.
    for (const listId of this.watchers.keys()) this.wake(listId);
    this.scheduleCheck(client);
  }

  /** Calls the watchers of `listId`. */
  private wake(listId: string): void {
    for (const watcher of [...(this.watchers.get(listId) ?? [])]) {
      try {
        watcher();
      } catch {
        // A watcher that throws must not keep the others from hearing, nor end the connection.
      }
    }
  }

  /** Tells `onStatus` (a logger that throws must not stop the connection from being made again). */
  private status(message: string, kind: 'lost' | 'back'): void {
    try {
      this.settings.onStatus?.(`${this.target}: ${message}`, kind);
    } catch {
      // Nothing to do: the message is lost, the connection is not.
    }
  }

  /**
   * The sequences of the watched lists, read on `client` and kept; with `wakeMoved`, a list whose
   * sequence moved since the last check (or that was not checked yet: it may have moved since its
   * watcher came) has its watchers woken. Rejects when the query fails.
   */
  private async sequences(client: pg.Client, wakeMoved: boolean): Promise<void> {
    const ids = [...this.watchers.keys()];
    const { rows } = await client.query<{ id: string; seq: string }>(
      'SELECT id, seq FROM raider_lists WHERE id = ANY($1::text[])',
      [ids],
    );
    const now = new Map(rows.map((row) => [row.id, Number(row.seq)]));
    for (const listId of ids) {
      if (!this.watchers.has(listId)) continue;
      const seq = now.get(listId) ?? 0;
      const before = this.seen.get(listId);
      this.seen.set(listId, seq);
      if (wakeMoved && before !== seq) this.wake(listId);
    }
  }

  private scheduleCheck(client: pg.Client): void {
    this.heartbeat = setTimeout(() => void this.check(client), this.settings.heartbeatMs);
    this.heartbeat.unref();
  }

  /** One heartbeat: the watched lists' sequences, within the timeout, else the connection is dead. */
  private async check(client: pg.Client): Promise<void> {
    this.heartbeat = undefined;
    if (this.client !== client) return;
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([
      this.sequences(client, true).then(
        () => 'answered' as const,
        // A statement error is an answer (the schema may not be there yet); a lost connection is
        // handled by its 'error' listener.
        (error: unknown) => (isConnectionError(error) ? ('lost' as const) : ('answered' as const)),
      ),
      new Promise<'silent'>((resolve) => {
        timer = setTimeout(() => resolve('silent'), this.settings.heartbeatTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (this.client !== client) return;
    if (answer === 'silent') {
      // It may have been dead since its last answer: the outage is counted from then.
      this.lose(
        client,
        `the LISTEN connection did not answer within ${seconds(this.settings.heartbeatTimeoutMs)}; it is dropped and made again`,
        this.answeredAt,
      );
      return;
    }
    this.answeredAt = Date.now();
    if (answer === 'lost') this.lose(client, 'the LISTEN connection was lost (its check failed)');
    else this.scheduleCheck(client);
  }

  /** `client` is gone (`why`, since `since`): drop it, say so, and make another. */
  private lose(client: pg.Client, why: string, since = Date.now()): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
    drop(client);
    this.reportLost(why, since);
    this.scheduleRetry();
  }

  /** Tells `onStatus` the connection is lost (since `since`), once per outage. */
  private reportLost(why: string, since = Date.now()): void {
    if (this.closed || this.lostAt !== undefined) return;
    this.lostAt = since;
    this.status(`${why}; changes made by other servers are not heard until it is back`, 'lost');
  }

  private scheduleRetry(): void {
    if (this.closed || this.watchers.size === 0 || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.ensure();
    }, this.pause);
    this.retry.unref();
    this.pause = Math.min(this.pause * 2, LONGEST_PAUSE_MS);
  }

  private async disconnect(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    this.lostAt = undefined;
    if (client) {
      // A polite end, but not waiting on a peer that may never answer.
      await Promise.race([client.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      drop(client);
    }
    // A watcher that came while the connection was being ended needs one again.
    if (!this.closed && this.watchers.size > 0) this.ensure();
  }
}
