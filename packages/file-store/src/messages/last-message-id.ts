/**
 * The ids of a list folder's messages: `.messages/.last-id` holds the last one handed out (16
 * digits and a newline, rewritten in place), and a new one is above it, above the inbox's
 * highest, and at least the time in ms times 1 000.
 */
import { join } from 'node:path';
import { disk } from '../disk.js';
import { ListFileError } from '../errors.js';
import { fileError } from './file-error.js';
import type { MessageEntry } from './message-file.js';

/** The file of the last id handed out: 16 digits and a newline, rewritten in place. */
const LAST_ID_FILE = '.last-id';
const LAST_ID_WIDTH = 16;

/**
 * The id of the next message of the inbox whose files are `entries` (call it under the message
 * lock), recorded in `root`'s `.last-id` before it is answered: above the last one handed out,
 * above the inbox's highest, and at least the time in ms times 1 000. The file lives in the page
 * cache only (it is not fsynced: that would cost a send a second fsync); when a machine crash
 * loses it, the clock keeps ids above those handed out before, the inbox's highest keeps its own
 * order whatever the clock does, and only a clock set back across the crash could make an id
 * repeat in another inbox. A failed send leaves a gap.
 * @throws ListFileError ending "nothing was sent" when the file cannot be read or written, or the
 * ids have run out.
 */
export async function nextMessageId(root: string, entries: readonly MessageEntry[]): Promise<number> {
  const path = join(root, LAST_ID_FILE);
  let fd: number;
  try {
    fd = await disk.open(path, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(path, error, 'nothing was sent');
    try {
      fd = await disk.open(path, 'w+', 0o644);
    } catch (created) {
      throw fileError(path, created, 'nothing was sent');
    }
  }
  try {
    const buffer = Buffer.alloc(64);
    const text = buffer.toString('utf8', 0, await disk.read(fd, buffer, 0, buffer.length, 0)).trim();
    const last = /^[0-9]{1,16}$/.test(text) ? Number(text) : 0;
    const highest = entries.at(-1)?.id ?? 0;
    const id = Math.max(last + 1, highest + 1, Date.now() * 1000);
    if (!Number.isSafeInteger(id)) throw new ListFileError(`${path}: the ids have run out (${id})`);
    const data = Buffer.from(`${String(id).padStart(LAST_ID_WIDTH, '0')}\n`);
    // In place: the file's one block is rewritten, so a full disk cannot refuse it.
    if ((await disk.write(fd, data, 0, data.length, 0)) !== data.length) {
      throw Object.assign(new Error(), { code: 'EIO' });
    }
    if ((await disk.fstat(fd)).size > data.length) await disk.ftruncate(fd, data.length);
    return id;
  } catch (error) {
    throw fileError(path, error, 'nothing was sent');
  } finally {
    await disk.close(fd);
  }
}
