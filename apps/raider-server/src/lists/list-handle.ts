/**
 * The list a conversation works on, wherever it lives: a folder under the data dir, a database, or
 * this process's memory. Each conversation holds its own handle.
 */
import type { MessageStore } from '@raider/tasks-registry';
import type { ListStore, TaskStore } from '@raider/todo-tools/v2';
import type { Logger } from '../log.js';
import { folderList } from './folder-lists.js';
import { type MemoryListOptions, memoryList } from './memory-lists.js';
import { type PostgresSettings, postgresList } from './postgres-lists.js';

/** The families kept whole (the task list is kept by record). */
export type WholeSection = 'todo' | 'todo_write';

/** A named list: the task store, the store of each other family, its agents' inboxes, and a watch for changes made elsewhere. */
export interface ListHandle {
  readonly id: string;
  /** The task list, by record, for one holder (one conversation). */
  tasks(): TaskStore;
  store<T>(section: WholeSection): ListStore<T>;
  /**
   * The inboxes of the list's agents (issue 27), shared by everyone on the list: this process's
   * conversations for a list in memory, every process on the folder or the database otherwise.
   */
  messages(): MessageStore;
  /** Calls `onChange` when the list may have changed elsewhere (another session or process); returns a function that stops it. */
  watch(onChange: () => void): () => void;
  /** Called once when the conversation that opened the handle ends (an in-memory list may go). */
  release(): void;
}

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
