/**
 * A watch on a list folder: the task files another writer changed (Claude Code itself, a
 * teammate, another raider process), noted until a holder looks at them, and a coalesced wake-up
 * for the holder's listeners. A folder that cannot be watched is no error: changes made elsewhere
 * then show at the next read of the change feed.
 *
 * The folder is never made here: a list nobody wrote to has no folder (a health check of
 * `claude mcp list` opens a conversation and leaves). Until the folder exists its parent is
 * watched for it (one watch, on the data dir), or, when the parent is missing too, its existence
 * is polled once a second while someone listens; once it appears the folder itself is watched and
 * the holder lists it once again (what was written before the watch began is in no event).
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { FOLDER_FILES } from './folder-files.js';
import { FolderWaiting } from './folder-waiting.js';
import { taskIdOf } from './task-file.js';

/** How often a folder whose parent is missing too is looked for, while someone listens. */
const POLL_MS = 1000;

/**
 * True for a file of the folder whose change says nothing of the list: a writer's temporary file
 * (raider's `.<name>.<pid>.<n>.tmp`, Claude Code 2.1.332's `<id>.json.tmp.<8 hex>`) or a lock
 * folder (`.lock.lock`, `<id>.json.lock`, one moved aside to be removed). The rename or removal
 * that makes a change visible names the file itself.
 */
function isTransient(fileName: string): boolean {
  return (
    (fileName.startsWith('.') && fileName.endsWith('.tmp')) ||
    /\.json\.tmp\.[0-9a-f]+$/.test(fileName) ||
    fileName.endsWith('.lock') ||
    fileName.endsWith('.stale')
  );
}

/** The watch of one list folder, started at the holder's first look. */
export class FolderWatch {
  /** Task files (`<id>.json`) seen to change, not yet looked at. */
  readonly dirty = new Set<string>();
  /** True when `.highwatermark` may have changed since it was last read (always, without a watch). */
  highWaterMarkDirty = true;
  /**
   * True when the holder must list the folder again to know what changed: the watch began after
   * the folder appeared (or again after an error), so what was written before is in no event.
   */
  rescan = false;
  private readonly listeners = new Set<() => void>();
  private watcher: FSWatcher | undefined;
  /** The parent's watch or the poll, while the folder cannot be watched itself. */
  private readonly waiting = new FolderWaiting();
  private wakeUp: NodeJS.Timeout | undefined;

  constructor(
    private readonly path: string,
    private readonly enabled: boolean,
  ) {}

  /** True while the folder is watched. */
  get active(): boolean {
    return this.watcher !== undefined;
  }

  /**
   * Starts watching the folder if it exists (once; a call while it is watched costs nothing), and
   * otherwise waits for it to appear, never making it.
   */
  start(): void {
    // Watched, or waited for by the parent's watch (whose event starts the folder's).
    if (this.watcher || this.waiting.parent || !this.enabled) return;
    if (this.watchFolder()) return;
    this.watchParent();
    if (this.waiting.parent) {
      // Made between the failed watch and the parent's: no event will tell of it.
      if (this.watchFolder()) this.wake();
      return;
    }
    if (this.listeners.size) this.startPolling();
  }

  /** Calls `listener` soon after a file of the folder changed; returns a function that stops it. */
  add(listener: () => void): () => void {
    this.listeners.add(listener);
    this.start();
    return () => this.listeners.delete(listener);
  }

  /** Stops watching and calling the listeners. */
  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.waiting.stop();
    if (this.wakeUp) clearTimeout(this.wakeUp);
    this.wakeUp = undefined;
    this.listeners.clear();
  }

  /** Watches the folder itself; false when it cannot be (it does not exist, or no watch is left). */
  private watchFolder(): boolean {
    // Once: an event the parent's watch queued before it was closed must not add a second watch.
    if (this.watcher) return true;
    let watcher: FSWatcher;
    try {
      watcher = watch(this.path, { persistent: false }, (_event, name) => this.seen(name?.toString()));
    } catch {
      return false;
    }
    watcher.on('error', () => {
      watcher.close();
      if (this.watcher === watcher) this.watcher = undefined;
      // Events may have been lost: the next look lists the folder, and a new watch is tried then.
      this.rescan = true;
    });
    this.watcher = watcher;
    this.waiting.stop();
    this.rescan = true;
    this.highWaterMarkDirty = true;
    return true;
  }

  /** Watches the parent for the folder's name (the folder is made, or moved in). */
  private watchParent(): void {
    const name = basename(this.path);
    try {
      const parent = watch(dirname(this.path), { persistent: false }, (_event, fileName) => {
        if (fileName !== null && fileName.toString() !== name) return;
        if (this.watchFolder()) this.wake();
      });
      parent.on('error', () => {
        parent.close();
        if (this.waiting.parent === parent) this.waiting.parent = undefined;
      });
      this.waiting.parent = parent;
      this.waiting.stopPolling();
    } catch {
      this.waiting.parent = undefined;
    }
  }

  /** Looks for the folder once a second (the parent is missing too), while someone listens. */
  private startPolling(): void {
    if (this.waiting.poll) return;
    this.waiting.poll = setInterval(() => {
      if (!this.listeners.size) {
        this.waiting.stop();
        return;
      }
      this.start();
      if (this.watcher) this.wake();
    }, POLL_MS);
    this.waiting.poll.unref();
  }

  private seen(fileName: string | undefined): void {
    if (!fileName) {
      // An event without a name (some platforms): anything may have changed.
      this.rescan = true;
    } else if (taskIdOf(fileName)) this.dirty.add(fileName);
    else if (fileName === FOLDER_FILES.highWaterMark) this.highWaterMarkDirty = true;
    // The inboxes' and the questions' folders say nothing of the tasks (each has a watch of its own).
    else if (isTransient(fileName) || fileName === FOLDER_FILES.messages || fileName === FOLDER_FILES.questions) return;
    this.wake();
  }

  /** Calls the listeners soon, once for every burst of events. */
  private wake(): void {
    if (!this.listeners.size || this.wakeUp) return;
    this.wakeUp = setTimeout(() => {
      this.wakeUp = undefined;
      for (const listener of this.listeners) listener();
    }, 5);
    this.wakeUp.unref();
  }
}
