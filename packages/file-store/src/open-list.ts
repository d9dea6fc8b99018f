/**
 * A named list under a data dir: its folder (`DIR/<list folder name>/`), converted from the
 * single-file layout of raider-server's first releases when such a file is there.
 */
import { listFolderPath } from './list-names.js';
import { openTaskFolder, type TaskFolder, type TaskFolderOptions } from './task-folder.js';

/**
 * Opens list `id` under `dataDir` (nothing touches the disk before the first call): the folder
 * `DIR/<listFolderName(id)>/`; a v1 list file `DIR/<name>.json` is converted into it at the first
 * call and kept beside it as `<name>.json.v1-backup`.
 * @throws ListIdError for an id that cannot name a folder under the data dir.
 */
export function openList(dataDir: string, id: string, options: Omit<TaskFolderOptions, 'v1File'> = {}): TaskFolder {
  const path = listFolderPath(dataDir, id);
  return openTaskFolder(path, { ...options, v1File: `${path}.json` });
}
