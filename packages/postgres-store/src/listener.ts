/**
 * One LISTEN connection per process, for every feed (the lists' changes, the agents' inboxes): a
 * NOTIFY on a feed's channel wakes the watchers of the key its payload names (a list id, an
 * inbox). The connection is made when the first watcher comes and kept up until the last one
 * goes, and it is checked, because a NOTIFY is lost while it is down and a connection can die
 * without a word (its peer frozen, a network that drops packets):
 *
 * - every `heartbeatMs` it runs one query per feed watched, a fingerprint of each watched key (a
 *   list's sequence; an inbox's last id and how many of its messages are free): a key whose
 *   fingerprint moved since the last check has its watchers woken (so a change is heard even when
 *   its NOTIFY never came), and no answer within `heartbeatTimeoutMs` means the connection is
 *   dead: it is dropped and made again (TCP keepalive backs this up at the OS level);
 * - when it comes back every watcher is woken (each catches up from the tables, which are the
 *   truth), after a pause that starts at 100 ms and doubles up to 1 s, so changes are heard
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

/**
 * What a watcher can watch: a NOTIFY channel (its payload the key of what changed) and the
 * heartbeat's query, which makes up for a NOTIFY lost on the way.
 */
export interface ListenerFeed {
  /** The NOTIFY channel (an SQL identifier). */
  readonly channel: string;
  /**
   * One query on `client`: a fingerprint of each of `keys` that changes when what it names does
   * (a key left out of the answer counts as `''`). Rejects when the query fails.
   */
  fingerprints(client: pg.ClientBase, keys: string[]): Promise<Map<string, string>>;
}

/** Ends `client` without waiting on a peer that may never answer. */
function drop(client: pg.Client): void {
  // node-postgres' socket (not in its types): destroyed, it ends the client at once.
  (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
  client.end().catch(() => {});
}

/** The LISTEN side of the store. */
export class Listener {
  // The watchers of each feed, by key.
  private readonly watchers = new Map<ListenerFeed, Map<string, Set<() => void>>>();
  // The fingerprint of each watched key at the last check (a key not in it has not been checked).
  private readonly seen = new Map<ListenerFeed, Map<string, string>>();
  private readonly byChannel: Map<string, ListenerFeed>;
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
    private readonly feeds: readonly ListenerFeed[],
    private readonly settings: ListenerSettings,
  ) {
    this.target = describeTarget(connectionString);
    this.byChannel = new Map(feeds.map((feed) => [feed.channel, feed]));
    for (const feed of feeds) {
      this.watchers.set(feed, new Map());
      this.seen.set(feed, new Map());
    }
  }

  /**
   * Calls `onChange` on every NOTIFY of `feed` for `key` (after a reconnect, and when the heartbeat
   * sees its fingerprint move); returns a function that stops it.
   */
  add(feed: ListenerFeed, key: string, onChange: () => void): () => void {
    const keys = this.watchers.get(feed);
    if (!keys) throw new Error(`the listener has no feed on channel ${feed.channel}`);
    let set = keys.get(key);
    if (!set) {
      set = new Set();
      keys.set(key, set);
    }
    set.add(onChange);
    this.ensure();
    return () => {
      set.delete(onChange);
      if (set.size === 0 && keys.get(key) === set) {
        keys.delete(key);
        this.seen.get(feed)?.delete(key);
      }
      if (!this.watching()) void this.disconnect();
    };
  }

  /** True while any key of any feed has a watcher. */
  private watching(): boolean {
    for (const keys of this.watchers.values()) if (keys.size > 0) return true;
    return false;
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.closed = true;
    for (const keys of this.watchers.values()) keys.clear();
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
    client.on('notification', (message) => {
      const feed = this.byChannel.get(message.channel);
      if (feed) this.wake(feed, message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(this.feeds.map((feed) => `LISTEN ${feed.channel};`).join(' '));
    } catch (error) {
      drop(client);
      this.reportLost(`the LISTEN connection could not be made (${error instanceof Error ? error.message : error})`);
      this.scheduleRetry();
      return;
    }
    if (this.closed || !this.watching()) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.answeredAt = Date.now();
    this.pause = FIRST_PAUSE_MS;
    // Where everything is now, so the checks that follow wake only the keys that move after it.
    for (const seen of this.seen.values()) seen.clear();
    await this.fingerprints(client, false).catch(() => undefined);
    if (this.client !== client) return;
    if (this.lostAt !== undefined) {
      this.status(
        `the LISTEN connection is back after ${seconds(Date.now() - this.lostAt)}; every list is caught up`,
        'back',
      );
      this.lostAt = undefined;
    }
    // Whatever was notified while no connection listened: every watcher catches up.
    for (const [feed, keys] of this.watchers) for (const key of [...keys.keys()]) this.wake(feed, key);
    this.scheduleCheck(client);
  }

  /** Calls the watchers of `key` in `feed`. */
  private wake(feed: ListenerFeed, key: string): void {
    for (const watcher of [...(this.watchers.get(feed)?.get(key) ?? [])]) {
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
   * The fingerprints of the watched keys, read on `client` (one query per feed watched) and kept;
   * with `wakeMoved`, a key whose fingerprint moved since the last check (or that was not checked
   * yet: it may have moved since its watcher came) has its watchers woken. Rejects when the
   * connection fails; a feed whose query PostgreSQL refuses (its table not made yet) is skipped.
   */
  private async fingerprints(client: pg.Client, wakeMoved: boolean): Promise<void> {
    for (const [feed, keys] of this.watchers) {
      if (keys.size === 0) continue;
      const watched = [...keys.keys()];
      let now: Map<string, string>;
      try {
        now = await feed.fingerprints(client, watched);
      } catch (error) {
        if (isConnectionError(error)) throw error;
        continue;
      }
      const seen = this.seen.get(feed) as Map<string, string>;
      for (const key of watched) {
        if (!keys.has(key)) continue;
        const fingerprint = now.get(key) ?? '';
        const before = seen.get(key);
        seen.set(key, fingerprint);
        if (wakeMoved && before !== fingerprint) this.wake(feed, key);
      }
    }
  }

  private scheduleCheck(client: pg.Client): void {
    this.heartbeat = setTimeout(() => void this.check(client), this.settings.heartbeatMs);
    this.heartbeat.unref();
  }

  /** One heartbeat: the watched keys' fingerprints, within the timeout, else the connection is dead. */
  private async check(client: pg.Client): Promise<void> {
    this.heartbeat = undefined;
    if (this.client !== client) return;
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([
      this.fingerprints(client, true).then(
        () => 'answered' as const,
        // A lost connection is handled by its 'error' listener (a statement error is an answer:
        // fingerprints skips the feed whose schema is not there yet).
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
    if (this.closed || !this.watching() || this.retry) return;
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
    if (!this.closed && this.watching()) this.ensure();
  }
}
