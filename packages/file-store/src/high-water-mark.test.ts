import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/cleanup.js';
import { FOLDER_FILES } from './folder-files.js';
import { FolderWatch } from './folder-watch.js';
import { HighWaterMarkFile } from './high-water-mark.js';
import { MAX_TASK_ID } from './task-file.js';

/** A mark file of a fresh folder, with an unwatched folder (so the file is read at every call). */
function markOf(folder = tempDir()) {
  const reports: string[] = [];
  const folderWatch = new FolderWatch(folder, false);
  const mark = new HighWaterMarkFile(folder, folderWatch, (message) => reports.push(message));
  const write = (text: string) => writeFileSync(join(folder, FOLDER_FILES.highWaterMark), text);
  return { folder, folderWatch, mark, reports, write };
}

describe('HighWaterMarkFile', () => {
  it('is 0 while the file is missing, and the number the file holds once it exists', async () => {
    const { mark, write } = markOf();
    expect(await mark.read()).toBe(0);
    write('7\n');
    expect(await mark.read()).toBe(7);
  });

  it('never goes down: a lower number in the file keeps the mark known', async () => {
    const { mark, write } = markOf();
    write('9');
    expect(await mark.read()).toBe(9);
    write('4');
    expect(await mark.read()).toBe(9);
  });

  it('is read again only when the watch says it may have changed, or when asked for fresh', async () => {
    const { mark, write, folderWatch } = markOf();
    write('3');
    expect(await mark.read()).toBe(3);
    folderWatch.highWaterMarkDirty = false;
    write('5');
    expect(await mark.read()).toBe(3);
    expect(await mark.read(true)).toBe(5);
  });

  it('takes a number beyond the highest id as every id taken, and says so', async () => {
    const { mark, write, folder, reports } = markOf();
    write('9007199254740993');
    expect(await mark.read()).toBe(MAX_TASK_ID);
    write('1234567890123456789012345');
    await mark.read();
    const path = join(folder, FOLDER_FILES.highWaterMark);
    expect(reports).toEqual([
      `${path}: 9007199254740993 is beyond ${MAX_TASK_ID}, the highest id a list hands out; left as it is, and no new id is handed out`,
      `${path}: a 25-digit number is beyond ${MAX_TASK_ID}, the highest id a list hands out; left as it is, and no new id is handed out`,
    ]);
  });

  it('reports a file that holds no whole number and keeps the mark it knew', async () => {
    const { mark, write, folder, reports } = markOf();
    write('6');
    await mark.read();
    write('six');
    expect(await mark.read()).toBe(6);
    expect(reports).toEqual([`${join(folder, FOLDER_FILES.highWaterMark)}: expected a whole number; left as it is`]);
  });

  it('answers the mark this holder wrote until the file is read again', async () => {
    const { mark, folderWatch } = markOf();
    folderWatch.highWaterMarkDirty = false;
    mark.wrote(12);
    expect(await mark.read()).toBe(12);
  });
});
