/** Reading list files safely: never through a symbolic link, never quoting what is read. */
import { constants, type Stats } from 'node:fs';
import { disk } from './disk.js';
import { codeOf } from './durable-write.js';
import { ListFileError } from './errors.js';

/** A file's identity and version: what tells a change made elsewhere from one's own write. */
export const signatureOf = (stat: Stats): string => `${stat.ino}:${stat.size}:${stat.mtimeMs}`;

/** Reads a file without following a symbolic link; undefined when it does not exist. */
export async function readRegular(path: string): Promise<{ text: string; signature: string } | undefined> {
  let fd: number;
  try {
    fd = await disk.open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new ListFileError(`${path}: is a symbolic link; a list file must be a regular file`);
    throw new ListFileError(`${path}: cannot be read (${codeOf(error)})`);
  }
  try {
    const stat = await disk.fstat(fd);
    if (!stat.isFile()) throw new ListFileError(`${path}: is not a regular file`);
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = await disk.read(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.subarray(0, read).toString('utf8'), signature: signatureOf(stat) };
  } finally {
    await disk.close(fd);
  }
}
