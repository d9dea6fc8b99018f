/**
 * The question files of one `.questions/` folder as a handle reads them: one question (one file),
 * the folder's question numbers, and on the way what must not stay: a question gone (ended
 * `keepSettledMs` ago) is removed, a write a killed process made durable is shown, a killed
 * writer's temporary is removed, and a file that cannot be trusted is moved aside and reported.
 *
 * A question that ended never changes again (a settle finds it ended and writes nothing), so the
 * handle notes each one it read ended, and when it ended: the count of an ask and `open()` read
 * only the files of questions that were open at the last look.
 */
import { join } from 'node:path';
import type { StoredQuestion } from '@raider/tasks-registry';
import { disk } from '../disk.js';
import { codeOf, isDeadTemporary } from '../durable-write.js';
import { ListFileError } from '../errors.js';
import { corruptName, sendingId, waitingName } from '../messages/message-file.js';
import { readRegular } from '../regular-file.js';
import { asRead, parseQuestion, type QuestionRecord, questionFileNumber } from './question-file.js';

/** One question file read: its record (undefined when it is missing), or why it cannot be trusted. */
export type QuestionRead = { record: QuestionRecord | undefined } | { problem: string };

/** The file numbers of a folder listing: the questions', and whether a write made durable waits to be shown. */
export interface QuestionListing {
  /** The question files' numbers, lowest (oldest) first. */
  readonly numbers: number[];
  /** The highest number any file names (a question's, one moved aside, one being written). */
  readonly highest: number;
  /** True when a `<n>.json.sending` is there (shown by the next listing under the lock). */
  readonly sending: boolean;
}

/** The reads of one `.questions/` folder, for one store handle. */
export class QuestionFiles {
  /** The questions this handle read ended (number → when they ended): their files never change again. */
  private readonly ended = new Map<number, number>();

  /**
   * @param root the `.questions` folder
   * @param keepSettledMs how long an ended question stays readable
   * @param report told (by path) of a question file that cannot be trusted, and where it went
   */
  constructor(
    readonly root: string,
    private readonly keepSettledMs: number,
    private readonly report: (message: string) => void,
  ) {}

  /** The path of question `n`'s file. */
  path(n: number): string {
    return join(this.root, waitingName(n));
  }

  /**
   * Lists the folder (nothing when it does not exist). `underLock`: also shows what a killed writer
   * made durable (`<n>.json.sending` renamed `<n>.json`, as its write would have) and removes the
   * temporaries of killed writers; call it so only holding the questions' lock.
   * @throws ListFileError when the folder cannot be listed.
   */
  async list(underLock: boolean): Promise<QuestionListing> {
    let names: string[];
    try {
      names = await disk.readdir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { numbers: [], highest: 0, sending: false };
      throw new ListFileError(`${this.root}: cannot be read (${codeOf(error)})`);
    }
    const numbers: number[] = [];
    let highest = 0;
    let sending = false;
    for (const name of names) {
      const n = questionFileNumber(name) ?? sendingId(name) ?? corruptNumber(name);
      if (n !== undefined) highest = Math.max(highest, n);
      if (questionFileNumber(name) !== undefined) numbers.push(n as number);
      else if (sendingId(name) !== undefined) {
        if (underLock && (await this.show(name, n as number))) numbers.push(n as number);
        else sending = true;
      } else if (underLock && isDeadTemporary(name)) await disk.remove(join(this.root, name));
    }
    return { numbers: [...new Set(numbers)].sort((a, b) => a - b), highest, sending };
  }

  /** True when this handle knows question `n` ended (nothing to read: it only waits to be removed). */
  async knownEnded(n: number, now: number): Promise<boolean> {
    const endedAt = this.ended.get(n);
    if (endedAt === undefined) return false;
    if (now - endedAt >= this.keepSettledMs) await this.removeGone(n);
    return true;
  }

  /** Notes that question `n` ended at `endedAt` (settled then, or expired then). */
  noteEnded(n: number, endedAt: number): void {
    this.ended.set(n, endedAt);
  }

  /**
   * Question `n`'s file, read (one file; a symbolic link or anything but a regular file is a problem).
   */
  async read(n: number): Promise<QuestionRead> {
    const path = this.path(n);
    try {
      const content = await readRegular(path);
      if (!content) return { record: undefined };
      const parsed = parseQuestion(content.text);
      return typeof parsed === 'string' ? { problem: parsed } : { record: parsed };
    } catch (error) {
      return {
        problem: ListFileError.isInstance(error) ? (error as Error).message.replace(`${path}: `, '') : codeOf(error),
      };
    }
  }

  /**
   * `record` (question `n`'s) as it stands at `now`, noting it when it ended; undefined when it is
   * gone (ended `keepSettledMs` ago or more: then its file is removed).
   */
  async current(record: QuestionRecord, n: number, now: number): Promise<StoredQuestion | undefined> {
    const question = asRead(record, n, now, this.keepSettledMs);
    if (question === undefined) await this.removeGone(n);
    else if (question.state !== 'open') this.noteEnded(n, question.settledAt ?? question.expiresAt);
    return question;
  }

  /**
   * Moves question `n`'s file aside to `<n>.json.corrupt` and reports it, once, by name, never
   * quoting it (call it holding the questions' lock, the file read again under it).
   */
  async moveAside(n: number, problem: string): Promise<void> {
    const path = this.path(n);
    let where = `moved aside to ${corruptName(n)}`;
    try {
      await disk.rename(path, join(this.root, corruptName(n)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // Moved by another handle meanwhile.
      where = `left where it is (it cannot be moved aside: ${codeOf(error)})`;
    }
    this.report(`${path}: ${problem}; the question is skipped, ${where}`);
  }

  /**
   * Shows what a write stopped before it showed (killed, or its rename failed after its folder's
   * fsync): `<n>.json.sending` renamed `<n>.json`. False when it cannot be yet (the next look tries again).
   */
  private async show(name: string, n: number): Promise<boolean> {
    try {
      await disk.rename(join(this.root, name), this.path(n));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Removes question `n`'s file, gone for good: it ended long enough ago that nothing changes it
   * (a settle finds it gone, or ended, and writes nothing), so no lock is needed; its number stays
   * in the high-water mark. A removal that fails is tried again at the next read.
   */
  private async removeGone(n: number): Promise<void> {
    try {
      await disk.remove(this.path(n));
      this.ended.delete(n);
    } catch {
      // Tried again by the next read that comes upon it.
    }
  }
}

/** The number of a file moved aside (`<n>.json.corrupt`), or undefined for any other file. */
function corruptNumber(name: string): number | undefined {
  const match = /^([1-9][0-9]{0,15})\.json\.corrupt$/.exec(name);
  const n = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}
