/**
 * A watch on a list folder: the task files another writer changed (Claude Code itself, a
 * teammate, another raider process), noted until a holder looks at them, and a coalesced wake-up
 * for the holder's listeners. A folder that cannot be watched is no error: changes made elsewhere
 * then show at the next read of the change feed.
 */
import { mkdirSync, watch } from 'node:fs';
import { FOLDER_FILES } from './folder-files.js';
import { taskIdOf } from './task-file.js';

/** The watch of one list folder, started at the holder's first look. */
export class FolderWatch {
  /** Task files (`<id>.json`) seen to change, not yet looked at. */
  readonly dirty = new Set<string>();
  /** True when `.highwatermark` may have changed since it was last read (always, without a watch). */
  highWaterMarkDirty = true;
  private readonly listeners = new Set<() => void>();
  private watcher: ReturnType<typeof watch> | undefined;
  private wakeUp: NodeJS.Timeout | undefined;

  constructor(
    private readonly path: string,
    private readonly enabled: boolean,
  ) {}

  /** True while the folder is watched. */
  get active(): boolean {
    return this.watcher !== undefined;
  }

  /** Starts watching (once; the folder is made so that it can be watched before its first task). */
  start(): void {
    if (this.watcher || !this.enabled) return;
    try {
      mkdirSync(this.path, { recursive: true });
      this.watcher = watch(this.path, { persistent: false }, (_event, name) => this.seen(name?.toString()));
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch {
      this.watcher = undefined;
    }
  }

  /** Calls `listener` soon after a file of the folder changed; returns a function that stops it. */
  add(listener: () => void): () => void {
    this.start();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops watching and calling the listeners. */
  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.wakeUp) clearTimeout(this.wakeUp);
    this.wakeUp = undefined;
    this.listeners.clear();
  }

  private seen(fileName: string | undefined): void {
    if (!fileName) return;
    if (taskIdOf(fileName)) this.dirty.add(fileName);
    else if (fileName === FOLDER_FILES.highWaterMark) this.highWaterMarkDirty = true;
    else if (fileName.startsWith('.') && fileName.endsWith('.tmp')) return;
    if (!this.listeners.size || this.wakeUp) return;
    this.wakeUp = setTimeout(() => {
      this.wakeUp = undefined;
      for (const listener of this.listeners) listener();
    }, 5);
    this.wakeUp.unref();
  }
}
