/**
 * Lists written by raider-server before the folder layout: one file per list, `DIR/<name>.json`,
 * with a section per family (`tasks: {tasks, nextId}`, `todo`, `todo_write`). Such a file is
 * read and converted once, into the list's folder, and kept beside it as
 * `<name>.json.v1-backup`; a file that cannot be converted is left exactly as it is and every
 * call says why.
 */
import { join } from 'node:path';
import type { TaskRecord } from '@raider/todo-tools';
import lockfile from 'proper-lockfile';
import { disk, exists } from './disk.js';
import { codeOf, replaceFile, syncFolder } from './durable-write.js';
import { ListFileError } from './errors.js';
import { FOLDER_FILES } from './folder-files.js';
import { readRegular } from './regular-file.js';
import { checkRecord, formatTaskFile } from './task-file.js';

/** A task as a v1 file kept it (the shape `onUpdate` hands out). */
interface V1Task {
  id: string;
  content: string;
  activeForm?: string;
  [key: string]: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The records and high-water mark of a v1 file's tasks section, or the text of what is wrong. */
function convertTasks(section: unknown, maxDepth: number): { records: TaskRecord[]; highWaterMark: number } | string {
  if (section === undefined) return { records: [], highWaterMark: 0 };
  if (!isObject(section) || !Array.isArray(section.tasks))
    return 'its "tasks" section: expected {tasks: [...], nextId}';
  const records: TaskRecord[] = [];
  for (const [index, item] of (section.tasks as unknown[]).entries()) {
    if (!isObject(item) || typeof item.id !== 'string' || !/^[1-9][0-9]{0,15}$/.test(item.id)) {
      return `its task at index ${index}: expected a decimal "id"`;
    }
    const { content, activeForm, ...rest } = item as V1Task;
    const shaped = {
      ...rest,
      subject: content,
      ...(activeForm !== undefined && activeForm !== content ? { activeForm } : {}),
    };
    const record = checkRecord(shaped, item.id, maxDepth);
    if (typeof record === 'string') return `its task #${item.id}: ${record}`;
    records.push(record);
  }
  const nextId = Number(section.nextId ?? 1);
  const highest = records.reduce((max, record) => Math.max(max, Number(record.id)), 0);
  return { records, highWaterMark: Math.max(highest, Number.isSafeInteger(nextId) ? nextId - 1 : 0) };
}

/**
 * Converts the v1 list file `v1Path` (when there is one) into the folder `folder`, under the v1
 * file's own lock (as v1 servers took it) and the folder's, then renames it to its backup name.
 * @throws ListFileError naming the file and what is wrong; the file is then left as it is.
 */
export async function migrateV1(
  v1Path: string,
  folder: string,
  locked: <T>(fn: () => Promise<T>) => Promise<T>,
  maxDepth: number,
): Promise<void> {
  if (!(await exists(v1Path))) return;
  const release = await lockfile
    .lock(v1Path, {
      realpath: false,
      stale: 10_000,
      retries: { retries: 200, factor: 1, minTimeout: 5, maxTimeout: 50 },
    })
    .catch((error: Error) => {
      throw new ListFileError(`${v1Path}: cannot take its lock to convert it (${error.message})`);
    });
  try {
    await locked(async () => {
      if (!(await exists(v1Path))) return;
      // A symbolic link is refused (its target's content is never read into a list).
      const content = await readRegular(v1Path);
      if (!content) return;
      const text = content.text;
      let doc: unknown;
      try {
        doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      } catch {
        throw new ListFileError(`${v1Path}: not valid JSON (${text.length} characters); fix or remove the file`);
      }
      if (!isObject(doc)) throw new ListFileError(`${v1Path}: expected a JSON object; fix or remove the file`);
      const tasks = convertTasks(doc.tasks, maxDepth);
      if (typeof tasks === 'string') throw new ListFileError(`${v1Path}: ${tasks}; fix or remove the file`);
      for (const section of ['todo', 'todo_write'] as const) {
        if (doc[section] !== undefined && !isObject(doc[section])) {
          throw new ListFileError(`${v1Path}: its "${section}" section: expected an object; fix or remove the file`);
        }
      }
      try {
        for (const record of tasks.records) {
          await replaceFile(join(folder, `${record.id}.json`), Buffer.from(formatTaskFile(record), 'utf8'));
        }
        await replaceFile(join(folder, FOLDER_FILES.highWaterMark), Buffer.from(String(tasks.highWaterMark), 'utf8'));
        if (doc.todo !== undefined) {
          await replaceFile(join(folder, FOLDER_FILES.todo), Buffer.from(`${JSON.stringify(doc.todo)}\n`, 'utf8'));
        }
        if (doc.todo_write !== undefined) {
          await replaceFile(
            join(folder, FOLDER_FILES.todoWrite),
            Buffer.from(`${JSON.stringify(doc.todo_write)}\n`, 'utf8'),
          );
        }
        await syncFolder(folder);
        let backup = `${v1Path}.v1-backup`;
        if (await exists(backup)) backup = `${backup}-${Date.now()}`;
        await disk.rename(v1Path, backup);
        await syncFolder(join(folder, '..'));
      } catch (error) {
        throw new ListFileError(`${v1Path}: could not be converted (${codeOf(error)}); it is kept as it is`);
      }
    });
  } finally {
    await release().catch(() => {});
  }
}
