/** Which adapter opens the list a conversation works on: a database, a data dir, or memory. */
import type { Logger } from '../log.js';
import { folderList } from './folder-lists.js';
import type { ListHandle } from './list-handle.js';
import { type MemoryListOptions, memoryList } from './memory-lists.js';
import { type PostgresSettings, postgresList } from './postgres-lists.js';

/** Where lists live: a data dir, a database (with its settings), or (neither) memory. */
export interface ListPlace extends PostgresSettings {
  dataDir?: string | undefined;
  databaseUrl?: string | undefined;
}

/**
 * The list a conversation works on: `id` in the database when there is one, else `id`'s folder
 * under the data dir, else a list shared in memory by this process's conversations; `undefined`
 * (the conversation's own list, in memory) without an id.
 * @throws SharedListLimitError when a new in-memory list would pass `options.maxLists`.
 */
export function listFor(
  place: ListPlace,
  id: string | undefined,
  options: MemoryListOptions & { log?: Logger } = {},
): ListHandle | undefined {
  if (id === undefined) return undefined;
  if (place.databaseUrl) return postgresList(place.databaseUrl, id, options.log, place);
  if (place.dataDir) return folderList(place.dataDir, id, options.log);
  return memoryList(id, options);
}
