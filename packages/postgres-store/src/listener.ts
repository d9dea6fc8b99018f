/**
 * One LISTEN connection per process: a NOTIFY on the channel (its payload a list id) wakes that
 * list's watchers. A notification is lost while the connection is down, so when it comes back
 * every watcher is woken (it then catches up from the changes table, which is the truth). The
 * connection is made when the first watcher comes and kept up, with a growing pause between
 * attempts, until the last one goes.
 */
import pg from 'pg';

/** The LISTEN side of the store. */
export class Listener {
  private readonly watchers = new Map<string, Set<() => void>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private pause = 100;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
  ) {}

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
      if (set.size === 0) this.watchers.delete(listId);
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
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 5000 });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      this.scheduleRetry();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      for (const watcher of this.watchers.get(message.payload ?? '') ?? []) watcher();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch {
      client.end().catch(() => {});
      this.scheduleRetry();
      return;
    }
    if (this.closed || this.watchers.size === 0) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.pause = 100;
    // Whatever was notified while no connection listened: every watcher catches up.
    for (const set of this.watchers.values()) for (const watcher of set) watcher();
  }

  private scheduleRetry(): void {
    if (this.closed || this.watchers.size === 0 || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.ensure();
    }, this.pause);
    this.retry.unref();
    this.pause = Math.min(this.pause * 2, 5000);
  }

  private async disconnect(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
