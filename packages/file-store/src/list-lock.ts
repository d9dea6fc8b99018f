/**
 * The list lock of a folder, as Claude Code takes it: proper-lockfile's lock on `.lock` (the folder
 * `.lock.lock`, its mtime kept fresh while held, taken over once stale). Within one process,
 * transactions on a folder also run one after another.
 */
import { closeSync, mkdirSync, openSync, rmdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { codeOf } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';

// One transaction at a time per folder within this process (the lock orders processes).
const inProcess = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier transaction of this process on `folder`. */
function queued<T>(folder: string, fn: () => Promise<T>): Promise<T> {
  const previous = inProcess.get(folder) ?? Promise.resolve();
  const run = previous.then(fn);
  const tail = run.catch(() => undefined);
  inProcess.set(folder, tail);
  void tail.then(() => {
    if (inProcess.get(folder) === tail) inProcess.delete(folder);
  });
  return run;
}

/** The lock of one list folder. */
export class ListLock {
  private readonly lockFile: string;
  /** The folder and its `.lock` file exist once made (made again if someone removed them). */
  private prepared = false;

  /**
   * @param path the list folder
   * @param staleMs a lock untouched this long is stale (its holder died) and is taken over
   */
  constructor(
    private readonly path: string,
    private readonly staleMs: number,
  ) {
    this.lockFile = join(path, FOLDER_FILES.lock);
  }

  /** Runs `fn` holding the list lock; rejects (nothing done) when the lock cannot be taken, or was lost meanwhile. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return queued(this.path, async () => {
      this.prepare();
      let compromised: Error | undefined;
      const release = await this.take((error) => {
        compromised = error;
      });
      try {
        const result = await fn();
        if (compromised) throw new ListFileError(`${this.path}: the lock was lost (${compromised.message})`);
        return result;
      } finally {
        try {
          await release();
        } catch {
          // A lock that was taken over is not ours to release.
        }
      }
    });
  }

  private prepare(): void {
    if (this.prepared && exists(this.lockFile)) return;
    try {
      mkdirSync(this.path, { recursive: true });
      closeSync(openSync(this.lockFile, 'a'));
      this.prepared = true;
    } catch (error) {
      throw new ListFileError(`${this.path}: cannot be created (${codeOf(error)}); nothing was changed`);
    }
  }

  /**
   * When the lock is free, one mkdir takes it (the same lock on disk that proper-lockfile makes);
   * when it is held, proper-lockfile waits for it with retries and takes over a stale one.
   * Resolves to its release.
   */
  private async take(onCompromised: (error: Error) => void): Promise<() => void | Promise<void>> {
    const lockDir = `${this.lockFile}.lock`;
    try {
      mkdirSync(lockDir);
      // Held longer than half the stale time (a slow hook): its mtime is refreshed, as proper-lockfile does.
      const refresh = setInterval(() => {
        try {
          const now = new Date();
          utimesSync(lockDir, now, now);
        } catch (error) {
          onCompromised(error as Error);
        }
      }, this.staleMs / 2);
      refresh.unref();
      return () => {
        clearInterval(refresh);
        rmdirSync(lockDir);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new ListFileError(`${this.path}: cannot take the list lock (${codeOf(error)})`);
      }
    }
    return lockfile
      .lock(this.lockFile, {
        realpath: false,
        stale: this.staleMs,
        onCompromised,
        retries: { retries: 1000, factor: 1, minTimeout: 5, maxTimeout: 40, randomize: true },
      })
      .catch((error: Error) => {
        throw new ListFileError(`${this.path}: cannot take the list lock (${error.message})`);
      });
  }
}

/** True when `path` exists. */
export function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
