/**
 * The change feed of a list folder on disk: `.raider-changes.jsonl`, one line per committed
 * change (`{"seq":12,"put":["3"],"removed":[],"highWaterMark":7}`), appended under the list's
 * lock. A holder reads only what was appended since it last looked (a stat, then the new bytes);
 * the file is compacted to its latest changes as it grows, so it is never replayed from the
 * beginning of time, and a holder older than what is kept loads the list whole.
 */
import type { Stats } from 'node:fs';
import { disk } from './disk.js';
import { temporaryPath, writeAll, writeDurably } from './durable-write.js';

/** One committed change: its sequence, the ids it put and removed, the high-water mark after it. */
export interface JournalEntry {
  seq: number;
  put: string[];
  removed: string[];
  highWaterMark: number;
}

const isIdList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((id) => typeof id === 'string' && /^[1-9][0-9]{0,15}$/.test(id));

/** A journal line's entry, or undefined when the line is not one. */
function parseEntry(line: string): JournalEntry | undefined {
  try {
    const raw = JSON.parse(line) as Partial<JournalEntry>;
    if (
      Number.isSafeInteger(raw.seq) &&
      (raw.seq as number) > 0 &&
      isIdList(raw.put) &&
      isIdList(raw.removed) &&
      Number.isSafeInteger(raw.highWaterMark)
    ) {
      return raw as JournalEntry;
    }
  } catch {
    // Not JSON: a torn or foreign line.
  }
  return undefined;
}

/** The journal of one list folder, as this holder has read it. */
export class ChangeJournal {
  /** The entries read, oldest first, at most `keep` of them. */
  private entries: JournalEntry[] = [];
  /** The latest sequence seen (0: none). */
  private latest = 0;
  /** The sequence below which this holder cannot say what changed (the feed does not reach back). */
  private reachesBackTo = 0;
  /** Which file was read (its inode) and how far. */
  private inode = -1;
  private offset = 0;
  /** Lines in the file, for compaction. */
  private lines = 0;
  /** Where the last `append` wrote its line (the file and its size before), so it can be taken back. */
  private appendedAt: { inode: number; size: number } | undefined;

  /**
   * @param path the journal file
   * @param keep how many changes are kept (in memory and, after compaction, in the file)
   */
  constructor(
    readonly path: string,
    private readonly keep: number,
  ) {}

  /** The sequence of the latest committed change read (0: none). */
  get seq(): number {
    return this.latest;
  }

  /** The high-water mark of the latest change read (0: none). */
  get highWaterMark(): number {
    return this.entries.at(-1)?.highWaterMark ?? 0;
  }

  /**
   * Reads what was appended since the last read: a stat, then only the new bytes; the whole
   * (bounded) file when it was replaced (compacted, or removed and begun anew). Call it in the
   * holder's queue: two refreshes at once would read the same bytes twice.
   */
  async refresh(): Promise<void> {
    let stat: Stats;
    try {
      stat = await disk.stat(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (this.inode !== -1 || this.latest !== 0) this.reset(0);
      return;
    }
    if (stat.ino !== this.inode || stat.size < this.offset) this.reset(stat.ino);
    if (stat.size > this.offset) await this.readFrom(stat.size);
  }

  private reset(inode: number): void {
    this.entries = [];
    this.inode = inode;
    this.offset = 0;
    this.lines = 0;
    // What happened before the first entry of a new file is unknown: holders behind it load.
    this.reachesBackTo = Number.POSITIVE_INFINITY;
    this.latest = 0;
  }

  private async readFrom(size: number): Promise<void> {
    const fd = await disk.open(this.path, 'r');
    try {
      const length = size - this.offset;
      const buffer = Buffer.alloc(length);
      let read = 0;
      while (read < length) {
        const n = await disk.read(fd, buffer, read, length - read, this.offset + read);
        if (n === 0) break;
        read += n;
      }
      // Only whole lines: a line being appended right now is read next time.
      const end = buffer.lastIndexOf(10, read - 1);
      if (end < 0) return;
      for (const line of buffer.subarray(0, end).toString('utf8').split('\n')) {
        this.lines += 1;
        const entry = parseEntry(line);
        if (!entry || entry.seq <= this.latest) {
          // A line that says nothing usable (torn, foreign, out of order): what changed up to
          // the next good line cannot be told, so holders behind that line load the list whole.
          this.entries = [];
          this.reachesBackTo = Number.POSITIVE_INFINITY;
          continue;
        }
        if (this.entries.length === 0 && this.reachesBackTo === Number.POSITIVE_INFINITY) {
          this.reachesBackTo = entry.seq === 1 ? 0 : entry.seq;
        }
        this.entries.push(entry);
        this.latest = entry.seq;
        if (this.entries.length > this.keep) {
          const dropped = this.entries.splice(0, this.entries.length - this.keep);
          this.reachesBackTo = (dropped.at(-1) as JournalEntry).seq + 1;
        }
      }
      this.offset += end + 1;
    } finally {
      await disk.close(fd);
    }
  }

  /**
   * The ids put and removed after `seq` (call `refresh` first), or undefined when the journal
   * does not reach back that far (or `seq` is ahead of it: the journal was begun anew).
   */
  since(seq: number): { ids: Set<string> } | undefined {
    if (seq === this.latest) return { ids: new Set() };
    if (seq < 0 || seq > this.latest || seq + 1 < this.reachesBackTo) return undefined;
    const ids = new Set<string>();
    for (const entry of this.entries) {
      if (entry.seq <= seq) continue;
      for (const id of entry.put) ids.add(id);
      for (const id of entry.removed) ids.add(id);
    }
    return { ids };
  }

  /**
   * Appends `entry` (under the list's lock, after `refresh`): one write of one line. When the
   * write fails, the file is cut back to where it was, so no torn line stays. @throws the error
   */
  async append(entry: JournalEntry): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
    const fd = await disk.open(this.path, 'a', 0o644);
    let before = -1;
    try {
      const stat = await disk.fstat(fd);
      before = stat.size;
      this.appendedAt = { inode: stat.ino, size: before };
      await writeAll(fd, line);
      if (stat.ino === this.inode && before === this.offset) {
        // Read up to here already (under the lock): take the line as written, without reading it back.
        this.offset += line.length;
        this.lines += 1;
        this.entries.push(entry);
        this.latest = entry.seq;
        if (this.entries.length > this.keep) {
          const dropped = this.entries.splice(0, this.entries.length - this.keep);
          this.reachesBackTo = (dropped.at(-1) as JournalEntry).seq + 1;
        }
        return;
      }
    } catch (error) {
      if (before >= 0) {
        try {
          await disk.ftruncate(fd, before);
        } catch {
          // The file is kept as it is; a torn last line is skipped by every reader.
        }
      }
      throw error;
    } finally {
      await disk.close(fd);
    }
    await this.refresh();
  }

  /**
   * Takes back the line the last `append` wrote (under the list's lock, when the rest of its
   * commit failed): the file is cut back to where it was, and read again from its start.
   * @throws when the file cannot be cut back
   */
  async retractLast(): Promise<void> {
    const at = this.appendedAt;
    if (!at) return;
    this.appendedAt = undefined;
    const fd = await disk.open(this.path, 'r+');
    try {
      if ((await disk.fstat(fd)).ino !== at.inode) {
        throw Object.assign(new Error('the feed was replaced'), { code: 'ESTALE' });
      }
      await disk.ftruncate(fd, at.size);
    } finally {
      await disk.close(fd);
    }
    this.reset(-1);
    await this.refresh();
  }

  /**
   * Rewrites the file with only the latest `keep` changes once it holds more than twice that
   * (under the list's lock): the cost is spread over the changes, and the file stays bounded.
   * `beforeRename` (the lock's fence) throws when the rewrite must not replace the file.
   */
  async compactIfNeeded(beforeRename: () => Promise<void>): Promise<void> {
    if (this.lines <= 2 * this.keep) return;
    const kept = this.entries.slice(-this.keep);
    const temporary = temporaryPath(this.path);
    try {
      await writeDurably(temporary, Buffer.from(kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''), 'utf8'));
      await beforeRename();
      await disk.rename(temporary, this.path);
    } catch {
      // A journal too long is no harm; it is tried again at the next change.
      await disk.remove(temporary);
      return;
    }
    await this.refresh();
  }
}
