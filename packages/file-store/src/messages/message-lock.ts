/**
 * The message lock of a list folder, `.messages/.lock`: held by every send (to hand out its id
 * and link its file in), take, release and peek, for well under a millisecond each, so it is made
 * to be cheap to take and to wait for.
 *
 * It is a hard link: each holder (a store handle) has a file of its own, `.holder.<pid>.<n>.tmp`,
 * and takes the lock by linking it as `.lock` (which fails while another's is there) and releases
 * it by removing that link. No inode is made or freed per call (on ext4 a mkdir and rmdir, or a
 * create and unlink, cost 150 to 250 µs; a link and an unlink, about 12). As with the list lock:
 * the holder keeps the file's mtime fresh while it holds it; one untouched for the stale time
 * belongs to a holder that died or froze and is taken over; and every step that makes a change
 * visible is fenced (`check()`): the lock is this holder's as long as `.lock` is its file (the same
 * inode; the holder's file exists as long as the handle, so its inode is never another's).
 *
 * On a file system without hard links, it is a lock folder (`.lock` made with mkdir), as the list lock is.
 */
import { randomInt } from 'node:crypto';
import { type FSWatcher, rmSync, watch } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { disk } from '../disk.js';
import { codeOf, isDeadTemporary, temporaryPath } from '../durable-write.js';
import { ListFileError } from '../errors.js';
import { type HeldLock, LockFolder } from '../list-lock.js';
import { oneAtATime } from '../one-at-a-time.js';

/** The lock's name in `.messages/`. */
const LOCK = '.lock';
/** How many times a waiter looks again at once (on the next turn of the event loop) before it sleeps. */
const QUICK_LOOKS = 20;
/** The longest sleep between two looks, in ms. */
const LONGEST_PAUSE_MS = 32;

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** The message lock of one `.messages/` folder, as one store handle takes it. */
export class MessageLock {
  /** `.messages/.lock`. */
  readonly lockPath: string;
  /** This holder's file, made at the first take (and again if someone removed it). */
  private own: { path: string; ino: bigint } | undefined;
  /** The lock folder used instead, once links turned out not to work here. */
  private folderLock: LockFolder | undefined;

  /**
   * @param root the `.messages` folder (or `.questions`, whose lock is made the same way)
   * @param staleMs a lock untouched this long is stale and is taken over
   * @param what how the lock is named in its errors (the questions' lock is not the message lock)
   */
  constructor(
    private readonly root: string,
    private readonly staleMs: number,
    private readonly what = 'the message lock',
  ) {
    this.lockPath = join(root, LOCK);
  }

  /** How long a call waits for the lock: as long as a lock can take to go stale, plus headroom for a busy machine. */
  get waitMs(): number {
    return this.staleMs + Math.max(5000, this.staleMs / 2);
  }

  /** Takes the lock; rejects (nothing held) after `waitMs`. @throws ListFileError */
  async take(): Promise<HeldLock> {
    if (this.folderLock) return this.folderLock.take();
    const deadline = Date.now() + this.waitMs;
    for (let attempt = 0; ; attempt += 1) {
      const own = await this.holder();
      const setAt = Date.now();
      try {
        // Fresh before it is the lock: a waiter must never find a just-taken lock stale.
        await disk.utimes(own.path, setAt / 1000, setAt / 1000);
        await disk.link(own.path, this.lockPath);
        return this.held(own, setAt);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (NO_LINKS.has(code)) return this.withoutLinks();
        if (code === 'ENOENT')
          this.own = undefined; // Our file was removed: made again at the next look.
        else if (code !== 'EEXIST')
          throw new ListFileError(`${this.root}: cannot take ${this.what} (${codeOf(error)})`);
      }
      await this.takeOverIfStale();
      if (Date.now() >= deadline) {
        throw new ListFileError(
          `${this.root}: cannot take ${this.what}: another process has held it for ${Math.round(this.waitMs / 1000)} s and keeps it fresh (a process that froze while holding it?)`,
        );
      }
      await this.pause(attempt);
    }
  }

  /**
   * Removes this holder's file (the handle is closed; a later take makes another). Synchronous:
   * `TaskFolder.close()` is, and one unlink at closing time holds no session's call.
   */
  close(): void {
    if (this.own) rmSync(this.own.path, { force: true });
    this.own = undefined;
  }

  /** This holder's file: made once (a killed process's are removed then), its inode noted. */
  private async holder(): Promise<{ path: string; ino: bigint }> {
    if (this.own) return this.own;
    let names: string[] = [];
    try {
      names = await disk.readdir(this.root);
    } catch {
      // No folder yet: the take below says so.
    }
    for (const name of names)
      if (name.startsWith('.holder.') && isDeadTemporary(name)) await disk.remove(join(this.root, name));
    const path = temporaryPath(join(this.root, 'holder'));
    try {
      await disk.writeNew(path, '', 0o644);
      this.own = { path, ino: (await disk.lstatExact(path)).ino };
    } catch (error) {
      throw new ListFileError(`${this.root}: cannot take ${this.what} (${codeOf(error)})`);
    }
    return this.own;
  }

  /** A file system without hard links: the lock folder from now on. */
  private withoutLinks(): Promise<HeldLock> {
    this.close();
    this.folderLock = new LockFolder(this.lockPath, this.staleMs, {
      folder: this.root,
      what: this.what,
      keeper: 'a process that froze while holding it?',
    });
    return this.folderLock.take();
  }

  /**
   * The wait before the next look: at once a few times (a holder is about to let go), then until
   * the lock's name changes in the folder (its release, seen by fs.watch) or 1, 2, 4 … 32 ms pass
   * (a release the watch did not report, a lock gone stale).
   */
  private async pause(attempt: number): Promise<void> {
    if (attempt < QUICK_LOOKS) {
      await new Promise((resolve) => setImmediate(resolve));
      return;
    }
    const ms = Math.min(LONGEST_PAUSE_MS, 2 ** (attempt - QUICK_LOOKS));
    const timer = sleep(ms / 2 + randomInt(Math.ceil(ms / 2) + 1));
    const released = this.released();
    if (!released) return void (await timer);
    try {
      await Promise.race([timer, released.changed]);
    } finally {
      released.stop();
    }
  }

  /** A promise of the next change of the lock's name in the folder; undefined when the folder cannot be watched. */
  private released(): { changed: Promise<void>; stop: () => void } | undefined {
    let watcher: FSWatcher;
    let resolve: () => void = () => {};
    const changed = new Promise<void>((done) => {
      resolve = done;
    });
    try {
      watcher = watch(this.root, { persistent: false }, (_event, name) => {
        if (name === null || name.toString() === LOCK) resolve();
      });
    } catch {
      return undefined;
    }
    watcher.on('error', () => resolve());
    // Released between the last look and the watch: no event will tell.
    disk.lstat(this.lockPath).catch(() => resolve());
    return { changed, stop: () => watcher.close() };
  }

  /** The inode and mtime of `path`, or undefined when it does not exist. */
  private async stat(path = this.lockPath): Promise<{ ino: bigint; mtimeMs: number } | undefined> {
    try {
      const stats = await disk.lstatExact(path);
      return { ino: stats.ino, mtimeMs: Number(stats.mtimeMs) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * Removes the lock when it is stale: moved aside first under a name of this process's (of
   * several processes taking over at once, one moves it), then checked again; a lock taken or
   * refreshed meanwhile is put back.
   */
  private async takeOverIfStale(): Promise<void> {
    let seen: Awaited<ReturnType<MessageLock['stat']>>;
    try {
      seen = await this.stat();
    } catch {
      return;
    }
    if (!seen || Date.now() - seen.mtimeMs < this.staleMs) return;
    const aside = `${this.lockPath}.${process.pid}.${randomInt(1e9)}.stale`;
    try {
      await disk.rename(this.lockPath, aside);
    } catch {
      return; // Another process moved it first, or it was released.
    }
    const moved = await this.stat(aside);
    if (moved && (moved.ino !== seen.ino || Date.now() - moved.mtimeMs < this.staleMs)) {
      try {
        // Not the stale lock seen: a live one, taken meanwhile. Back, unless the name was taken again.
        await disk.link(aside, this.lockPath);
      } catch {
        // That holder's fence tells it the lock was lost.
      }
    }
    await disk.remove(aside);
  }

  /** The held lock of `own` (its fence refreshes the mtime once a third of the stale time has passed). */
  private held(own: { path: string; ino: bigint }, setAt: number): HeldLock {
    const lost = (why: string) =>
      Object.assign(
        new ListFileError(
          `${this.root}: ${this.what} was lost while the change was being made (${why}: this process was paused or starved longer than the lock's stale time, ${this.staleMs / 1000} s, or someone removed ${LOCK})`,
        ),
        { lockLost: true as const },
      );
    let stampedAt = setAt;
    // One check or release at a time, as the list lock's.
    const inTurn = oneAtATime();
    return {
      check: () =>
        inTurn(async () => {
          let now: Awaited<ReturnType<MessageLock['stat']>>;
          try {
            now = await this.stat();
          } catch (error) {
            throw lost(`it cannot be read: ${codeOf(error)}`);
          }
          if (!now) throw lost('it was removed');
          if (now.ino !== own.ino) throw lost('another process holds it now');
          if (Date.now() - stampedAt < this.staleMs / 3) return;
          stampedAt = Date.now();
          try {
            await disk.utimes(own.path, stampedAt / 1000, stampedAt / 1000);
          } catch (error) {
            throw lost(`it cannot be refreshed: ${codeOf(error)}`);
          }
        }),
      // Removes the link only while it is still this holder's (never another's).
      release: () =>
        inTurn(async () => {
          try {
            if ((await this.stat())?.ino === own.ino) await disk.unlink(this.lockPath);
          } catch {
            // Gone, or not ours: nothing to release.
          }
        }),
    };
  }
}
