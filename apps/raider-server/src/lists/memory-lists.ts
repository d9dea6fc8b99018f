/**
 * The lists conversations work on: a named list's file under the data dir, or a list shared in
 * memory by this process's conversations that name it, and the handle a conversation holds.
 */
import { type ListStore, memoryStore } from '@raider/todo-tools';
import { SharedListLimitError } from '../errors.js';
import { openListFile } from './list-file.js';

/** A named list and the store of each family's section of it. */
export interface ListHandle {
  readonly id: string;
  store<T>(section: 'tasks' | 'todo' | 'todo_write'): ListStore<T>;
  /** Called once when the conversation that opened the handle ends (an in-memory list may go). */
  release?(): void;
}

/** How long an unused in-memory list is kept, and how many there may be at once. */
export interface MemoryListOptions {
  /** An in-memory list nobody uses is dropped after this long, in ms (default 30 minutes). */
  keepMs?: number;
  /** Most in-memory lists at once (default 100); lists nobody uses make room first. */
  maxLists?: number;
}

interface SharedList {
  sections: Map<string, ListStore<unknown>>;
  /** Conversations using the list now. */
  users: number;
  /** When the last user left (for the oldest-first eviction). */
  unusedSince: number;
  expiry: NodeJS.Timeout | undefined;
}

const sharedInMemory = new Map<string, SharedList>();

/** How many lists are shared in memory now (used or waiting out their keep time). */
export function sharedListCount(): number {
  return sharedInMemory.size;
}

/**
 * The list a conversation works on: `id`'s file under the data dir when there is one, else a
 * list shared in memory by this process's conversations; `undefined` (the conversation's own
 * list, in memory) without an id.
 * @throws SharedListLimitError when a new in-memory list would pass `options.maxLists`.
 */
export function listFor(
  dataDir: string | undefined,
  id: string | undefined,
  options: MemoryListOptions = {},
): ListHandle | undefined {
  if (id === undefined) return undefined;
  return dataDir ? openListFile(dataDir, id) : memoryList(id, options);
}

/**
 * A list shared in memory by the conversations of this process that name it (no data dir). It
 * lives while a conversation uses it, plus `keepMs` (a client reconnecting finds it); the number
 * of such lists is bounded: unused ones make room, oldest first, and beyond that the list is
 * refused.
 * @throws SharedListLimitError when every one of `maxLists` lists is in use.
 */
export function memoryList(id: string, options: MemoryListOptions = {}): ListHandle {
  const keepMs = options.keepMs ?? 30 * 60_000;
  const maxLists = options.maxLists ?? 100;
  let shared = sharedInMemory.get(id);
  if (!shared) {
    if (sharedInMemory.size >= maxLists) {
      const unused = [...sharedInMemory.entries()]
        .filter(([, list]) => list.users === 0)
        .sort(([, a], [, b]) => a.unusedSince - b.unusedSince)[0];
      if (!unused) {
        throw new SharedListLimitError(
          `${maxLists} lists are shared in memory and each is in use, the most allowed; end a session, or keep lists on disk with --data-dir`,
        );
      }
      dropShared(unused[0]);
    }
    shared = { sections: new Map(), users: 0, unusedSince: Date.now(), expiry: undefined };
    sharedInMemory.set(id, shared);
  }
  const list = shared;
  list.users += 1;
  if (list.expiry) clearTimeout(list.expiry);
  list.expiry = undefined;
  let released = false;
  return {
    id,
    store<T>(section: string): ListStore<T> {
      const store = list.sections.get(section) ?? memoryStore<unknown>();
      list.sections.set(section, store);
      return store as ListStore<T>;
    },
    release() {
      if (released) return;
      released = true;
      list.users -= 1;
      if (list.users > 0) return;
      list.unusedSince = Date.now();
      list.expiry = setTimeout(() => {
        if (sharedInMemory.get(id) === list && list.users === 0) dropShared(id);
      }, keepMs);
      list.expiry.unref();
    },
  };
}

function dropShared(id: string): void {
  const list = sharedInMemory.get(id);
  if (list?.expiry) clearTimeout(list.expiry);
  sharedInMemory.delete(id);
}
