/**
 * The locks of a list folder, as Claude Code takes them, and their fences.
 *
 * - The list lock: the folder `.lock.lock` (proper-lockfile's lock on `.lock`). Claude Code takes
 *   it to create a task and to reset the list; raider takes it for every change.
 * - A task's lock: the folder `<id>.json.lock` (proper-lockfile's lock on `<id>.json` with
 *   `lockfilePath: <id>.json.lock`, `realpath: false`). Claude Code 2.1.332 updates and deletes a
 *   task under it alone; raider takes it, inside the list lock, for every task file a change
 *   replaces or removes.
 *
 * Both are one {@link LockFolder}: a folder made with one mkdir, its mtime kept fresh while held,
 * taken over once stale (untouched for the stale time, 10 s as proper-lockfile's default), so a
 * process that honours proper-lockfile waits for raider and raider waits for it. Within one process,
 * transactions on a folder also run one after another.
 *
 * A lock on a file system cannot stop a holder that was paused (SIGSTOP, a laptop lid, a debugger,
 * a long GC) past the stale time from waking up and writing after another process took the lock
 * over. So every write is fenced: the holder sets the lock folder's mtime to a value of its own (its
 * token, with the folder's inode) and, right before each rename and before it acknowledges, checks
 * that the lock still carries that token ({@link LockFence}). A holder whose lock was taken over
 * (or removed by hand) learns it there and answers that the lock was lost, instead of writing over
 * what the new holder did.
 */
import { randomInt } from 'node:crypto';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { disk, exists } from './disk.js';
import { codeOf } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';
import { oneAtATime } from './one-at-a-time.js';

// One transaction at a time per folder within this process (the lock orders processes).
const inProcess = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier transaction of this process on `folder` (any key naming one lock). */
export function queued<T>(folder: string, fn: () => Promise<T>): Promise<T> {
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
 * The fence of a held lock: `check()` rejects with a `ListFileError` (with `lockLost: true`) once
 * the lock is no longer this holder's (taken over, removed), and refreshes it when it is getting
 * old. Await it right before every step that makes a change visible, and before acknowledging.
 * The checks of one lock run one after another (a refresh never races another check's).
 */
export interface LockFence {
  check(): Promise<void>;
}

/** A lock this process holds: its fence, and its release (which never removes another's lock). */
export interface HeldLock extends LockFence {
  release(): Promise<void>;
}

/**
 * The locks of one transaction: the list lock's fence (`check()`), and `hold()`, which takes one
 * more lock (a task's) for the rest of the transaction. Every lock held is refreshed while the
 * transaction runs and released when it ends, the extra ones first.
 */
export interface TransactionLocks extends LockFence {
  /** Takes `lock` (waiting for it as for the list lock) until the transaction ends; resolves to its fence. */
  hold(lock: LockFolder): Promise<LockFence>;
}

/** The error of a write whose lock was lost: `lockLost` tells it from other failures. */
export type LockLostError = ListFileError & { lockLost: true };

/** True for the error a fence throws when the lock was lost. */
export function isLockLost(error: unknown): error is LockLostError {
  return ListFileError.isInstance(error) && (error as { lockLost?: unknown }).lockLost === true;
}

/** How a lock is named in the messages of its list folder. */
interface LockNames {
  /** The list folder, which every message starts with. */
  folder: string;
  /** What the lock is: `the list lock`, `the lock of task 3`. */
  what: string;
  /** Who may keep it fresh for too long, as a guess for the person reading the message. */
  keeper: string;
}

/**
 * A lock as proper-lockfile takes it, on any path: the folder `lockDir` exists while the lock is
 * held, its mtime refreshed by its holder; a folder untouched for `staleMs` belongs to a holder
 * that died or froze and is taken over.
 */
export class LockFolder {
  /**
   * @param lockDir the lock folder (`.lock.lock`, `<id>.json.lock`)
   * @param staleMs a lock untouched this long is stale and is taken over
   * @param names how the lock is named in messages
   */
  constructor(
    readonly lockDir: string,
    private readonly staleMs: number,
    private readonly names: LockNames,
  ) {}

  /**
   * How long a call waits for the lock: as long as a lock can take to go stale (its holder was
   * killed right after refreshing it), plus headroom for a busy machine. A holder that keeps its
   * lock fresh longer than that (a hook that never ends) makes the call fail.
   */
  get waitMs(): number {
    return this.staleMs + Math.max(5000, this.staleMs / 2);
  }

  /**
   * Takes the lock: one mkdir when it is free; else waits, taking it over once stale. Rejects
   * (nothing held) after `waitMs`. Resolves to the held lock: its fence and its release.
   */
  async take(): Promise<HeldLock> {
    const deadline = Date.now() + this.waitMs;
    const { folder, what, keeper } = this.names;
    for (;;) {
      try {
        await disk.mkdir(this.lockDir);
        try {
          return this.held(await this.stamp());
        } catch (error) {
          try {
            await disk.rmdir(this.lockDir);
          } catch {
            // Not ours to keep either way.
          }
          throw new ListFileError(`${folder}: cannot take ${what} (${codeOf(error)}); nothing was changed`);
        }
      } catch (error) {
        if (ListFileError.isInstance(error)) throw error;
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new ListFileError(`${folder}: cannot take ${what} (${codeOf(error)})`);
        }
      }
      await this.takeOverIfStale();
      if (Date.now() >= deadline) {
        throw new ListFileError(
          `${folder}: cannot take ${what}: another process has held it for ${Math.round(this.waitMs / 1000)} s and keeps it fresh (${keeper}); nothing was changed`,
        );
      }
      await sleep(5 + randomInt(35));
    }
  }

  /** The lock folder's inode and mtime, or undefined when there is none. */
  private async stat(path = this.lockDir): Promise<{ ino: bigint; mtimeNs: bigint; mtimeMs: number } | undefined> {
    try {
      const stats = await disk.statExact(path);
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
  private async stamp(): Promise<Token> {
    const setAt = Date.now();
    const seconds = (setAt - randomInt(1000) / 1000) / 1000;
    await disk.utimes(this.lockDir, seconds, seconds);
    const stats = await this.stat();
    if (!stats) throw Object.assign(new Error('the lock folder vanished'), { code: 'ENOENT' });
    return { ino: stats.ino, mtimeNs: stats.mtimeNs, setAt };
  }

  /**
   * Removes the lock folder when it is stale. It is first moved aside under a name of this
   * process's (so of several processes taking over at once, one moves it), then checked again: a
   * lock that was taken or refreshed meanwhile is put back.
   */
  private async takeOverIfStale(): Promise<void> {
    let seen: Awaited<ReturnType<LockFolder['stat']>>;
    try {
      seen = await this.stat();
    } catch {
      return;
    }
    if (!seen || Date.now() - seen.mtimeMs < this.staleMs) return;
    const aside = `${this.lockDir}.${process.pid}.${randomInt(1e9)}.stale`;
    try {
      await disk.rename(this.lockDir, aside);
    } catch {
      return; // Another process moved it first, or it was released.
    }
    const moved = await this.stat(aside);
    if (moved && (moved.ino !== seen.ino || Date.now() - moved.mtimeMs < this.staleMs)) {
      // Not the stale lock seen: a live one, taken meanwhile. Its holder's fence will tell if this hurt it.
      try {
        await disk.rename(aside, this.lockDir);
        return;
      } catch {
        // The name was taken again meanwhile: that holder has it; the one moved aside is lost.
      }
    }
    try {
      await disk.rmdir(aside);
    } catch {
      // Left for no one: a stale name nobody reads.
    }
  }

  /** The held lock carrying `token` (the token is refreshed in place). */
  private held(token: Token): HeldLock {
    const { folder, what } = this.names;
    const lost = (why: string) =>
      Object.assign(
        new ListFileError(
          `${folder}: ${what} was lost while the change was being made (${why}: this process was paused or starved longer than the lock's stale time, ${this.staleMs / 1000} s, or someone removed ${basename(this.lockDir)})`,
        ),
        { lockLost: true as const },
      );
    // A check that refreshes the token must end before the next one reads it (the transaction's
    // own checks and the refresh timer's would otherwise see each other's stamp as another's).
    const inTurn = oneAtATime();
    return {
      check: () =>
        inTurn(async () => {
          let now: Awaited<ReturnType<LockFolder['stat']>>;
          try {
            now = await this.stat();
          } catch (error) {
            throw lost(`it cannot be read: ${codeOf(error)}`);
          }
          if (!now) throw lost('it was removed');
          if (now.ino !== token.ino || now.mtimeNs !== token.mtimeNs) throw lost('another process holds it now');
          if (Date.now() - token.setAt < this.staleMs / 3) return;
          try {
            Object.assign(token, await this.stamp());
          } catch (error) {
            throw lost(`it cannot be refreshed: ${codeOf(error)}`);
          }
        }),
      // Removes the lock folder only if it is still the one this process took (never another's).
      release: () =>
        inTurn(async () => {
          try {
            const now = await this.stat();
            if (now && now.ino === token.ino && now.mtimeNs === token.mtimeNs) await disk.rmdir(this.lockDir);
          } catch {
            // Gone, or not ours: nothing to release.
          }
        }),
    };
  }
}

/** The lock of one list folder, and the locks of its tasks. */
export class ListLock {
  private readonly lockFile: string;
  private readonly listLock: LockFolder;
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
    this.listLock = new LockFolder(`${this.lockFile}.lock`, staleMs, {
      folder: path,
      what: 'the list lock',
      keeper: 'a hook that does not end?',
    });
  }

  /** How long a call waits for a lock (see {@link LockFolder.waitMs}). */
  get waitMs(): number {
    return this.listLock.waitMs;
  }

  /**
   * The lock of task `id` as Claude Code 2.1.332 takes it: the folder `<id>.json.lock` beside the
   * task file, with the list lock's stale time. Take it inside {@link run} with `locks.hold()`.
   */
  taskLock(id: string): LockFolder {
    return new LockFolder(join(this.path, `${id}.json.lock`), this.staleMs, {
      folder: this.path,
      what: `the lock of task ${id}`,
      keeper: 'a writer of that task that does not end?',
    });
  }

  /**
   * Runs `fn` holding the list lock, with the transaction's locks (the list lock's fence, and
   * more locks taken with `hold`). Creates the folder and its `.lock` when missing: a change is
   * about to be made. Rejects (nothing done) when the lock cannot be had within `waitMs`.
   */
  run<T>(fn: (locks: TransactionLocks) => Promise<T>): Promise<T> {
    return queued(this.path, async () => {
      await this.prepare();
      const list = await this.listLock.take();
      const extra: HeldLock[] = [];
      const checkAll = async () => {
        await list.check();
        for (const held of extra) await held.check();
      };
      // Held longer than a third of the stale time (a slow hook, a task lock waited for): every
      // lock held is refreshed, as proper-lockfile does (one refresh at a time: a slow disk may
      // take longer than the period).
      let refreshing = false;
      const refresh = setInterval(() => {
        if (refreshing) return;
        refreshing = true;
        checkAll().then(
          () => {
            refreshing = false;
          },
          () => clearInterval(refresh),
        );
      }, this.staleMs / 3);
      refresh.unref();
      const locks: TransactionLocks = {
        check: () => list.check(),
        hold: async (lock) => {
          const held = await lock.take();
          extra.push(held);
          return held;
        },
      };
      try {
        return await fn(locks);
      } finally {
        clearInterval(refresh);
        for (const held of extra.reverse()) await held.release();
        await list.release();
      }
    });
  }

  private async prepare(): Promise<void> {
    if (this.prepared && (await exists(this.lockFile))) return;
    try {
      await disk.mkdir(this.path, { recursive: true });
      await disk.close(await disk.open(this.lockFile, 'a'));
      this.prepared = true;
    } catch (error) {
      throw new ListFileError(`${this.path}: cannot be created (${codeOf(error)}); nothing was changed`);
    }
  }
}
