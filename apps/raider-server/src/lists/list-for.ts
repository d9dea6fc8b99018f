/** Which adapter opens the list a conversation works on: a database, a data dir, or memory. */
import type { Logger } from '../log.js';
import { folderList } from './folder-lists.js';
import type { ListHandle } from './list-handle.js';
import type { MemoryListOptions, MemoryLists } from './memory-lists.js';
import type { DatabaseLists, PostgresSettings } from './postgres-lists.js';

/** Where lists live: a data dir, a database (with its settings), or (neither) memory. */
export interface ListPlace extends PostgresSettings {
  dataDir?: string | undefined;
  databaseUrl?: string | undefined;
}

/** What a server holds of its lists (its runtime): the lists it shares in memory, its database pools. */
export interface ServerLists {
  readonly memoryLists: MemoryLists;
  readonly databases: DatabaseLists;
}

/**
 * The list a conversation works on: `id` in the database when there is one (through the
 * server's pool), else `id`'s folder under the data dir, else a list the server shares in memory
 * between its conversations; `undefined` (the conversation's own list, in memory) without an id.
 * @throws SharedListLimitError when a new in-memory list would pass `options.maxLists`.
 */
export function listFor(
  lists: ServerLists,
  place: ListPlace,
  id: string | undefined,
  options: MemoryListOptions & { log?: Logger } = {},
): ListHandle | undefined {
  if (id === undefined) return undefined;
  if (place.databaseUrl) return lists.databases.list(place.databaseUrl, id, options.log, place);
  if (place.dataDir) return folderList(place.dataDir, id, options.log);
  return lists.memoryLists.open(id, options);
}
