/**
 * The high-water mark of a list's questions, `.questions/.highwatermark`: the highest question
 * number ever handed out (16 digits and a newline, rewritten in place and fsynced), so that an id
 * is never given twice, not after every question file is gone (settled and removed after
 * `keepSettledMs`), not after a restart or a machine crash.
 */
import { join } from 'node:path';
import { disk } from '../disk.js';
import { ListFileError } from '../errors.js';
import { fileError } from '../messages/file-error.js';

/** The mark's file in `.questions/`. */
export const MARK_FILE = '.highwatermark';
const MARK_WIDTH = 16;

/** The mark of one `.questions/` folder, as one store handle reads and raises it (under the questions' lock). */
export class QuestionMark {
  /** The highest number this handle read or wrote: a mark never goes down, even if its file is damaged. */
  private known = 0;

  /**
   * @param root the `.questions` folder
   * @param report told (by path) of a mark that holds no whole number (the files' highest is used then)
   */
  constructor(
    private readonly root: string,
    private readonly report: (message: string) => void,
  ) {}

  /**
   * The next question number (call it holding the questions' lock, the folder made), recorded in
   * the mark before it is answered: above the mark, above `highest` (the highest question file
   * there), above what this handle knew. The file is fsynced; its folder entry, for a mark just
   * made, becomes durable with the ask's folder fsync, which comes before the ask is answered.
   * @throws ListFileError ending "nothing was asked" when the file cannot be read or written, or
   * the numbers have run out.
   */
  async next(highest: number): Promise<number> {
    const path = join(this.root, MARK_FILE);
    let fd: number;
    try {
      fd = await disk.open(path, 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(path, error, 'nothing was asked');
      try {
        fd = await disk.open(path, 'w+', 0o644);
      } catch (created) {
        throw fileError(path, created, 'nothing was asked');
      }
    }
    try {
      const buffer = Buffer.alloc(64);
      const text = buffer.toString('utf8', 0, await disk.read(fd, buffer, 0, buffer.length, 0)).trim();
      let mark = 0;
      if (/^[0-9]{1,16}$/.test(text)) mark = Number(text);
      else if (text !== '')
        this.report(`${path}: expected a whole number of at most 16 digits; rewritten from the questions there`);
      const n = Math.max(mark, highest, this.known) + 1;
      if (!Number.isSafeInteger(n) || String(n).length > MARK_WIDTH) {
        throw new ListFileError(`${path}: the question numbers have run out (${mark})`);
      }
      const data = Buffer.from(`${String(n).padStart(MARK_WIDTH, '0')}\n`);
      // In place: the file's one block is rewritten, so a full disk cannot refuse it.
      if ((await disk.write(fd, data, 0, data.length, 0)) !== data.length) {
        throw Object.assign(new Error(), { code: 'EIO' });
      }
      if ((await disk.fstat(fd)).size > data.length) await disk.ftruncate(fd, data.length);
      await disk.fsync(fd);
      this.known = n;
      return n;
    } catch (error) {
      throw fileError(path, error, 'nothing was asked');
    } finally {
      await disk.close(fd);
    }
  }
}
