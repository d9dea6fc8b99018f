/**
 * The list lock of a folder, as Claude Code takes it: the folder `.lock.lock` (proper-lockfile's
 * lock on `.lock`), its mtime kept fresh while held, taken over once stale. Within one process,
 * transactions on a folder also run one after another.
 *
 * A lock on a file system cannot stop a holder that was paused (SIGSTOP, a laptop lid, a debugger,
 * a long GC) past the stale time from waking up and writing after another process took the lock
 * over. So every write is fenced: the holder sets the lock's mtime to a value of its own (its
 * token, with the lock's inode) and, right before each rename and before it acknowledges, checks
 * that the lock still carries that token ({@link LockFence}). A holder whose lock was taken over
 * (or removed by hand) learns it there and answers that the lock was lost, instead of writing over
 * what the new holder did.
 */
import { randomInt } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** What a lock held by this process is recognised by: the lock folder's inode and the mtime it set. */
interface Token {
  ino: bigint;
  mtimeNs: bigint;
  /** When this process last set the mtime (ms, its own clock). */
  setAt: number;
}

/**
 * The fence of a held lock: `check()` throws a `ListFileError` (with `lockLost: true`) once the
 * lock is no longer this holder's (taken over, removed), and refreshes it when it is getting old.
 * Call it right before every step that makes a change visible, and before acknowledging.
 */
export interface LockFence {
  check(): void;
}

/** The error of a write whose lock was lost: `lockLost` tells it from other failures. */
export type LockLostError = ListFileError & { lockLost: true };

/** True for the error a fence throws when the lock was lost. */
export function isLockLost(error: unknown): error is LockLostError {
  return ListFileError.isInstance(error) && (error as { lockLost?: unknown }).lockLost === true;
}

/** The lock of one list folder. */
export class ListLock {
  private readonly lockFile: string;
  private readonly lockDir: string;
  /** The folder and its `.lock` file exist once made (made again if someone removed them). */
  private prepared = false;

  /**
   * @param path the list folder
   * @param staleMs a lock untouched this long is stale (its holder died or froze) and is taken over
   */
  constructor(
    private readonly path: string,
    private readonly staleMs: number,
  ) {
    this.lockFile = join(path, FOLDER_FILES.lock);
    this.lockDir = `${this.lockFile}.lock`;
  }

  /**
   * How long a call waits for the lock: as long as a lock can take to go stale (its holder was
   * killed right after refreshing it), plus headroom for a busy machine. A holder that keeps its
   * lock fresh longer than that (a hook that never ends) makes the call fail.
   */
  get waitMs(): number {
    return this.staleMs + Math.max(5000, this.staleMs / 2);
  }

  /**
   * Runs `fn` holding the list lock, with the lock's fence. Rejects (nothing done) when the lock
   * cannot be had within `waitMs`.
   */
  run<T>(fn: (fence: LockFence) => Promise<T>): Promise<T> {
    return queued(this.path, async () => {
      this.prepare();
      const token = await this.take();
      const fence = this.fence(token);
      // Held longer than a third of the stale time (a slow hook): refreshed, as proper-lockfile does.
      const refresh = setInterval(() => {
        try {
          fence.check();
        } catch {
          clearInterval(refresh);
        }
      }, this.staleMs / 3);
      refresh.unref();
      try {
        return await fn(fence);
      } finally {
        clearInterval(refresh);
        this.release(token);
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

  /** The lock folder's inode and mtime, or undefined when there is none. */
  private stat(path = this.lockDir): { ino: bigint; mtimeNs: bigint; mtimeMs: number } | undefined {
    try {
      const stats = statSync(path, { bigint: true });
      return { ino: stats.ino, mtimeNs: stats.mtimeNs, mtimeMs: Number(stats.mtimeMs) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * Sets the lock folder's mtime to now, give or take a random fraction of a millisecond (so no
   * two holders set the same value), and returns the token it now carries.
   */
  private stamp(): Token {
    const setAt = Date.now();
    const seconds = (setAt - randomInt(1000) / 1000) / 1000;
    utimesSync(this.lockDir, seconds, seconds);
    const stats = this.stat();
    if (!stats) throw Object.assign(new Error('the lock folder vanished'), { code: 'ENOENT' });
    return { ino: stats.ino, mtimeNs: stats.mtimeNs, setAt };
  }

  /**
   * Takes the lock: one mkdir when it is free; else waits, taking it over once stale. Gives up
   * after `waitMs`. Resolves to the token the lock carries.
   */
  private async take(): Promise<Token> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      try {
        mkdirSync(this.lockDir);
        try {
          return this.stamp();
        } catch (error) {
          try {
            rmdirSync(this.lockDir);
          } catch {
            // Not ours to keep either way.
          }
          throw new ListFileError(`${this.path}: cannot take the list lock (${codeOf(error)}); nothing was changed`);
        }
      } catch (error) {
        if (ListFileError.isInstance(error)) throw error;
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new ListFileError(`${this.path}: cannot take the list lock (${codeOf(error)})`);
        }
      }
      this.takeOverIfStale();
      if (Date.now() >= deadline) {
        throw new ListFileError(
          `${this.path}: cannot take the list lock: another process has held it for ${Math.round(this.waitMs / 1000)} s and keeps it fresh (a hook that does not end?); nothing was changed`,
        );
      }
      await sleep(5 + randomInt(35));
    }
  }

  /**
   * Removes the lock folder when it is stale. It is first moved aside under a name of this
   * process's (so of several processes taking over at once, one moves it), then checked again: a
   * lock that was taken or refreshed meanwhile is put back.
   */
  private takeOverIfStale(): void {
    let seen: ReturnType<ListLock['stat']>;
    try {
      seen = this.stat();
    } catch {
      return;
    }
    if (!seen || Date.now() - seen.mtimeMs < this.staleMs) return;
    const aside = `${this.lockDir}.${process.pid}.${randomInt(1e9)}.stale`;
    try {
      renameSync(this.lockDir, aside);
    } catch {
      return; // Another process moved it first, or it was released.
    }
    const moved = this.stat(aside);
    if (moved && (moved.ino !== seen.ino || Date.now() - moved.mtimeMs < this.staleMs)) {
      // Not the stale lock seen: a live one, taken meanwhile. Its holder's fence will tell if this hurt it.
      try {
        renameSync(aside, this.lockDir);
        return;
      } catch {
        // The name was taken again meanwhile: that holder has it; the one moved aside is lost.
      }
    }
    try {
      rmdirSync(aside);
    } catch {
      // Left for no one: a stale name nobody reads.
    }
  }

  /** The fence of the lock carrying `token` (the token is refreshed in place). */
  private fence(token: Token): LockFence {
    const lost = (why: string) =>
      Object.assign(
        new ListFileError(
          `${this.path}: the list lock was lost while the change was being made (${why}: this process was paused or starved longer than the lock's stale time, ${this.staleMs / 1000} s, or someone removed ${FOLDER_FILES.lock}.lock)`,
        ),
        { lockLost: true as const },
      );
    return {
      check: () => {
        let now: ReturnType<ListLock['stat']>;
        try {
          now = this.stat();
        } catch (error) {
          throw lost(`it cannot be read: ${codeOf(error)}`);
        }
        if (!now) throw lost('it was removed');
        if (now.ino !== token.ino || now.mtimeNs !== token.mtimeNs) throw lost('another process holds it now');
        if (Date.now() - token.setAt < this.staleMs / 3) return;
        try {
          Object.assign(token, this.stamp());
        } catch (error) {
          throw lost(`it cannot be refreshed: ${codeOf(error)}`);
        }
      },
    };
  }

  /** Removes the lock folder if it is still the one this process took (never another's). */
  private release(token: Token): void {
    try {
      const now = this.stat();
      if (now && now.ino === token.ino && now.mtimeNs === token.mtimeNs) rmdirSync(this.lockDir);
    } catch {
      // Gone, or not ours: nothing to release.
    }
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
