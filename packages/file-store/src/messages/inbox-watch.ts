/**
 * The watch of one agent's inbox folder: its listeners are called when a message may have arrived
 * (a send's file linked in, a release's renamed back, by any process), and when a lease seen in
 * the folder lapses with its messages still there (a killed taker's: they can be taken again).
 *
 * The inbox is watched with fs.watch. Until it exists, the nearest of its parents that does
 * (`.messages`, the list folder) is watched for the next one down; when neither exists, or fs.watch
 * cannot be had (no watches left, a file system without events), the inbox is polled instead: its
 * folder's version looked at every `POLL_MS`. Nothing here makes a folder.
 *
 * What each event asks of the disk (is the file it names there?) is asked off the event loop.
 * Starting a watch looks at the folder synchronously (is it there, what leases does it hold), as
 * does the poll: once per watch begun or folder made, and twice a second only where fs.watch
 * cannot be had, never once per message.
 */
import { existsSync, type FSWatcher, readdirSync, statSync, watch } from 'node:fs';
import { basename, join } from 'node:path';
import { exists } from '../disk.js';
import { FolderWaiting } from '../folder-waiting.js';
import { messageEntry, sendingId } from './message-file.js';

/** How often an inbox that cannot be watched is looked at, while someone listens. */
const POLL_MS = 500;
// setTimeout's longest delay; a longer one would fire at once.
const LONGEST_TIMER = 2 ** 31 - 1;

/** A subscription (an object, so one function watched twice is two subscriptions). */
interface Listener {
  readonly onMessage: () => void;
}

/**
 * Calls a listener so that one that throws neither stops the others nor the watch: its error is
 * thrown again in a later task, as an EventTarget listener's is, not lost.
 */
function call(listener: Listener): void {
  try {
    listener.onMessage();
  } catch (error) {
    setTimeout(() => {
      throw error;
    }, 0);
  }
}

/** The watch of one inbox, started by its first listener and stopped with its last. */
export class InboxWatch {
  private readonly listeners = new Set<Listener>();
  private watcher: FSWatcher | undefined;
  /** The watch of the nearest parent that exists, or the poll, while the inbox cannot be watched itself. */
  private readonly waiting = new FolderWaiting();
  /** The inbox folder's version at the last poll. */
  private polled: string | undefined;
  /** Waiting messages' names the watch saw come or go, looked at once per burst of events. */
  private readonly seenNames = new Set<string>();
  /** True when the next flush calls the listeners whatever the names say. */
  private wakeAll = false;
  private flushing = false;
  /** Leases seen in the folder (file name → when it ends), until they end or go. */
  private readonly leases = new Map<string, number>();
  private lapseTimer: NodeJS.Timeout | undefined;
  private lapseAt = Number.POSITIVE_INFINITY;
  /** True when the folder held a message a take may have at its last listing (noteLeases). */
  private holdsMessage = false;
  /** Counts the stops: a look begun before one does not touch what the watch knows after it. */
  private generation = 0;

  /**
   * @param inbox the inbox folder
   * @param parents the folders above it that may be missing too, nearest first (`.messages`, the list folder)
   */
  constructor(
    private readonly inbox: string,
    private readonly parents: readonly string[],
  ) {}

  /** Calls `onMessage` when a message may have arrived; returns a function that stops it. */
  add(onMessage: () => void): () => void {
    const listener: Listener = { onMessage };
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start(false);
    return () => {
      if (this.listeners.delete(listener) && this.listeners.size === 0) this.stop();
    };
  }

  /** Calls the listeners soon (a send or a release through this process's store). */
  wake(): void {
    this.wakeAll = true;
    this.scheduleFlush();
  }

  /** True while someone listens. */
  get listened(): boolean {
    return this.listeners.size > 0;
  }

  /** Stops watching and calling the listeners. */
  close(): void {
    this.listeners.clear();
    this.stop();
  }

  private stop(): void {
    this.generation += 1;
    this.watcher?.close();
    this.watcher = undefined;
    this.waiting.stop();
    if (this.lapseTimer) clearTimeout(this.lapseTimer);
    this.lapseTimer = undefined;
    this.lapseAt = Number.POSITIVE_INFINITY;
    this.leases.clear();
    this.seenNames.clear();
    this.wakeAll = false;
  }

  /**
   * Watches the inbox if it can; else its nearest parent that exists, or polls. `late`: the inbox
   * appeared while it was waited for, so what it received before the watch began is in no event:
   * the listeners are called when it holds a message already (not for a folder a send has just
   * made, whose message's rename the new watch sees).
   */
  private start(late: boolean): void {
    if (this.watcher || !this.listeners.size) return;
    if (this.watchInbox()) {
      if (late && this.holdsMessage) this.wake();
    } else if (existsSync(this.inbox)) {
      // There, but no watch can be had on it (none left, or a file system without them).
      this.waiting.closeParent();
      this.startPolling();
    } else if (!this.waiting.parent && !this.waiting.poll) this.waitForInbox();
  }

  /** Watches the inbox folder itself; false when it cannot be (it does not exist, or no watch is left). */
  private watchInbox(): boolean {
    let watcher: FSWatcher;
    try {
      watcher = watch(this.inbox, { persistent: false }, (_event, name) => this.seen(name?.toString()));
    } catch {
      return false;
    }
    watcher.on('error', () => {
      watcher.close();
      if (this.watcher !== watcher) return;
      // Events may have been lost: the listeners look, and the inbox is watched again or polled.
      this.watcher = undefined;
      this.wake();
      this.start(true);
    });
    this.watcher = watcher;
    this.waiting.stop();
    this.noteLeases();
    return true;
  }

  /** Watches the nearest parent that exists for the next folder down; polls when none can be watched. */
  private waitForInbox(): void {
    this.waiting.stop();
    const chain = [this.inbox, ...this.parents];
    for (let index = 1; index < chain.length; index += 1) {
      const below = chain[index - 1] as string;
      const next = basename(below);
      let parent: FSWatcher;
      try {
        parent = watch(chain[index] as string, { persistent: false }, (_event, name) => {
          if (name !== null && name.toString() !== next) return;
          this.start(true);
          // The next folder down appeared, not yet the inbox: wait on that one.
          if (!this.watcher && !this.waiting.poll && this.listeners.size && existsSync(below)) this.waitForInbox();
        });
      } catch {
        continue;
      }
      parent.on('error', () => {
        parent.close();
        if (this.waiting.parent !== parent) return;
        this.waiting.parent = undefined;
        if (!this.watcher) this.startPolling();
      });
      this.waiting.parent = parent;
      // Made between the failed watch and this one: no event will tell of it.
      if (existsSync(below)) {
        this.start(true);
        if (!this.watcher && !this.waiting.poll && index > 1) this.waitForInbox();
      }
      return;
    }
    this.startPolling();
  }

  /** Looks at the inbox every POLL_MS: watched once it can be, else its folder's version compared. */
  private startPolling(): void {
    if (this.waiting.poll) return;
    this.polled = this.version();
    this.waiting.poll = setInterval(() => {
      if (!this.listeners.size) return;
      if (this.watchInbox()) {
        this.wake();
        return;
      }
      const version = this.version();
      if (version !== this.polled) this.wake();
      this.polled = version;
      // A lease that lapsed while polling: the names are read again (a lapse changes no version).
      this.noteLeases();
    }, POLL_MS);
    this.waiting.poll.unref();
  }

  /** The inbox folder's version (inode, mtime), or undefined when it is missing. */
  private version(): string | undefined {
    try {
      const stats = statSync(this.inbox, { bigint: true });
      return `${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
    } catch {
      return undefined;
    }
  }

  /**
   * Notes every lease in the folder (its messages come back when it ends), and whether the folder
   * holds a message a take may have (waiting, a lease ended, or one a killed sender made durable).
   */
  private noteLeases(): void {
    let names: string[];
    this.holdsMessage = false;
    try {
      names = readdirSync(this.inbox);
    } catch {
      return;
    }
    const now = Date.now();
    for (const name of names) {
      this.noteLease(name);
      const entry = messageEntry(name);
      const takeable = entry !== undefined && (entry.until === undefined || entry.until <= now);
      if (takeable || sendingId(name) !== undefined) this.holdsMessage = true;
    }
    this.scheduleLapse();
  }

  /** Notes `name` when it is a lease that has yet to end. */
  private noteLease(name: string): void {
    const until = messageEntry(name)?.until;
    if (until !== undefined && until > Date.now()) this.leases.set(name, until);
  }

  private seen(name: string | undefined): void {
    if (name === undefined) this.wakeAll = true;
    else {
      const entry = messageEntry(name);
      if (!entry) return; // A temporary file, one moved aside, the lock: the link or rename that matters names its file.
      if (entry.until === undefined) this.seenNames.add(name);
      else this.lookAtLease(name);
    }
    this.scheduleFlush();
  }

  /** Notes the lease `name` if it is there (a take's), forgets it if not (settled); off the event loop. */
  private lookAtLease(name: string): void {
    const generation = this.generation;
    void exists(join(this.inbox, name)).then((there) => {
      if (generation !== this.generation) return;
      if (there) this.noteLease(name);
      else this.leases.delete(name);
      this.scheduleLapse();
    });
  }

  /** True when one of the files `names` of the inbox is there. */
  private async anyThere(names: readonly string[]): Promise<boolean> {
    for (const name of names) if (await exists(join(this.inbox, name))) return true;
    return false;
  }

  private scheduleFlush(): void {
    if (this.flushing || !this.listeners.size) return;
    this.flushing = true;
    // Once for every burst of events of one turn of the event loop.
    setImmediate(() => this.flush());
  }

  /**
   * Calls the listeners when a message came (a name seen that exists: not one a take renamed away),
   * the names looked at off the event loop.
   */
  private flush(): void {
    this.flushing = false;
    const wakeAll = this.wakeAll;
    const names = [...this.seenNames];
    this.seenNames.clear();
    this.wakeAll = false;
    void (wakeAll ? Promise.resolve(true) : this.anyThere(names)).then((arrived) => {
      if (arrived) for (const listener of [...this.listeners]) if (this.listeners.has(listener)) call(listener);
    });
  }

  /** Sets the timer of the first lease to end. */
  private scheduleLapse(): void {
    let first = Number.POSITIVE_INFINITY;
    for (const until of this.leases.values()) first = Math.min(first, until);
    if (first >= this.lapseAt || first === Number.POSITIVE_INFINITY) return;
    if (this.lapseTimer) clearTimeout(this.lapseTimer);
    this.lapseAt = first;
    this.lapseTimer = setTimeout(() => this.lapsed(), Math.min(Math.max(0, first - Date.now()) + 5, LONGEST_TIMER));
    this.lapseTimer.unref();
  }

  /** The leases that ended: the listeners are called if one of them still holds its message. */
  private lapsed(): void {
    this.lapseTimer = undefined;
    this.lapseAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    const ended: string[] = [];
    for (const [name, until] of this.leases) {
      if (until > now) continue;
      this.leases.delete(name);
      ended.push(name);
    }
    this.scheduleLapse();
    if (!ended.length) return;
    const generation = this.generation;
    void this.anyThere(ended).then((there) => {
      if (!there || generation !== this.generation) return;
      this.wakeAll = true;
      this.scheduleFlush();
    });
  }
}
