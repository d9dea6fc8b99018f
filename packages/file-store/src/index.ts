// The public API of @raider/file-store: name every export explicitly (no `export *`); what is not
// exported here is private. src/index.barrel.test.ts lists them: add a name there on purpose.
export { ListFileError, ListIdError } from './errors.js';
export { FOLDER_FILES } from './folder-files.js';
export { claudeListId, claudeTaskFolder, listFolderName, listFolderPath } from './list-names.js';
export { openList } from './open-list.js';
export type { TaskFolder, TaskFolderOptions } from './task-folder.js';
export { openTaskFolder } from './task-folder.js';
