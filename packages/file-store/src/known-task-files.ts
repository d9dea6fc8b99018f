/**
 * What one holder of a list folder knows of its task files: each file's version as this holder
 * last read or wrote it (what tells a change made elsewhere from its own write), the optional keys
 * its record held, and the highest id seen. Reading a task file goes through here, so what is
 * known is always what was read.
 */
import { join } from 'node:path';
import type { TaskRecord } from '@raider/todo-tools';
import { readRegular } from './regular-file.js';
import { keysOf, parseTaskFile, type RecordKeys } from './task-file.js';

/**
 * How many task files a whole read has open at once: each file is four calls of the thread pool
 * (open, fstat, read, close), so one at a time a read waits on every hand-over; measured on 10 000
 * files on 2 busy cores, 32 at once took 0.6 to 1.0 times as long as 8, and 64 gained little more.
 */
const READS_AT_ONCE = 32;

/** What reading one task file gave: its content (undefined: no such file), or the error. */
export type Fetched = { content: Awaited<ReturnType<typeof readRegular>> } | { error: unknown };

/** A task file as this holder last read or wrote it. */
export interface KnownFile {
  /** Its version (inode, size, mtime): what tells a change made elsewhere from one's own write. */
  signature: string;
  /** The optional keys its record held: an update writes its keys in Claude Code's order from them. */
  keys: RecordKeys;
}

/** The task files of one list folder that this holder read or wrote, by file name (`<id>.json`). */
export class KnownTaskFiles {
  /** The highest id this holder knows of (a task, a bad file); raised by every read and commit. */
  highestId = 0;
  private readonly files = new Map<string, KnownFile>();

  /**
   * @param folder the list folder
   * @param maxDepth metadata nesting deeper than this makes a task file unreadable
   * @param report told (by path) of a task file that cannot be read
   */
  constructor(
    private readonly folder: string,
    private readonly maxDepth: number,
    private readonly report: (message: string) => void,
  ) {}

  /** What this holder knows of the file `name`; undefined when it has not read or written it. */
  get(name: string): KnownFile | undefined {
    return this.files.get(name);
  }

  /** True when this holder read or wrote the file `name` (and has not seen it go). */
  has(name: string): boolean {
    return this.files.has(name);
  }

  /** The names of the files this holder knows. */
  names(): IterableIterator<string> {
    return this.files.keys();
  }

  /** Records the file `name` as this holder just wrote it. */
  set(name: string, known: KnownFile): void {
    this.files.set(name, known);
  }

  /** Forgets the file `name` (this holder removed it, or saw it go). */
  delete(name: string): void {
    this.files.delete(name);
  }

  /** Forgets every file (before the folder is read whole again); the highest id stays. */
  clear(): void {
    this.files.clear();
  }

  /**
   * Reads the file of task `id`: its record, or undefined when it is gone or cannot be read (then
   * reported, left as it is, and out of the list; a file that is there but not a task's record is
   * still known, so that its next change is seen). Raises the highest id to `id` either way.
   */
  async read(id: string): Promise<TaskRecord | undefined> {
    return this.record(id, await this.fetch(id));
  }

  /**
   * Reads the files of tasks `ids` as {@link read} does, a few at a time (a list read whole is
   * thousands of files: one after another, each would wait for the last), and records them in the
   * order of `ids`, so that what is known and what is reported is as if read one by one.
   */
  async readEach(ids: readonly string[]): Promise<(TaskRecord | undefined)[]> {
    const fetched = await this.fetchEach(ids);
    return ids.map((id, index) => this.record(id, fetched[index] as Fetched));
  }

  /** What the files of tasks `ids` hold, read a few at a time; nothing is recorded until {@link record}. */
  async fetchEach(ids: readonly string[]): Promise<Fetched[]> {
    const fetched = new Array<Fetched>(ids.length);
    let next = 0;
    const reader = async () => {
      for (let index = next++; index < ids.length; index = next++) {
        fetched[index] = await this.fetch(ids[index] as string);
      }
    };
    await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, ids.length) }, reader));
    return fetched;
  }

  /** The content of task `id`'s file (undefined: gone), or the error that kept it from being read. */
  private async fetch(id: string): Promise<Fetched> {
    try {
      return { content: await readRegular(join(this.folder, `${id}.json`)) };
    } catch (error) {
      return { error };
    }
  }

  /** Records what was read of task `id`'s file (see {@link read}); reports a file that cannot be used. */
  record(id: string, fetched: Fetched): TaskRecord | undefined {
    const name = `${id}.json`;
    const path = join(this.folder, name);
    this.highestId = Math.max(this.highestId, Number(id));
    if ('error' in fetched) {
      const { error } = fetched;
      this.report(`${path}: ${error instanceof Error ? error.message : String(error)}; left as it is`);
      this.files.delete(name);
      return undefined;
    }
    const { content } = fetched;
    if (!content) {
      this.files.delete(name);
      return undefined;
    }
    const record = parseTaskFile(content.text, id, this.maxDepth);
    if (typeof record === 'string') {
      this.files.set(name, { signature: content.signature, keys: 0 });
      this.report(`${path}: ${record}; left as it is, and out of the list`);
      return undefined;
    }
    this.files.set(name, { signature: content.signature, keys: keysOf(record) });
    return record;
  }
}
