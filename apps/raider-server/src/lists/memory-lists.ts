/** Lists shared in memory by this process's conversations that name them (no data dir, no database). */
import { type MessageStore, memoryMessageStore } from '@raider/tasks-registry';
import {
  type ListStore,
  memoryListStore,
  memoryTaskStore,
  type TaskStore,
  type TodoToolState,
  type TodoWriteState,
} from '@raider/todo-tools/v2';
import { SharedListLimitError } from '../errors.js';
import { type ListHandle, listHandle, type WholeSection } from './list-handle.js';

/** How long an unused in-memory list is kept, and how many there may be at once. */
export interface MemoryListOptions {
  /** An in-memory list nobody uses is dropped after this long, in ms (default 30 minutes). */
  keepMs?: number;
  /** Most in-memory lists at once (default 100); lists nobody uses make room first. */
  maxLists?: number;
}

interface SharedList {
  tasks: TaskStore;
  sections: Map<string, ListStore<unknown>>;
  /** The inboxes of the list's agents, made at the first use. */
  messages: MessageStore | undefined;
  /** Conversations to tell of a change to a whole-kept family. */
  listeners: Set<() => void>;
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
 * The list `id` shared in memory, made when no conversation has it yet (an unused one makes room
 * when `maxLists` are kept).
 * @throws SharedListLimitError when every one of `maxLists` lists is in use.
 */
function sharedList(id: string, maxLists: number): SharedList {
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
    shared = {
      tasks: memoryTaskStore(),
      sections: new Map(),
      messages: undefined,
      listeners: new Set(),
      users: 0,
      unusedSince: Date.now(),
      expiry: undefined,
    };
    sharedInMemory.set(id, shared);
  }
  return shared;
}

/** The list's store of `section`, shared by its conversations (made by the first to open the list). */
function sectionStore<T>(list: SharedList, section: WholeSection): ListStore<T> {
  let kept = list.sections.get(section);
  if (!kept) {
    const inner = memoryListStore<unknown>();
    // The other conversations on the list hear of a change (the task store tells its own).
    kept = {
      load: () => inner.load(),
      transact: async (fn) => {
        const result = await inner.transact(fn);
        for (const listener of list.listeners) listener();
        return result;
      },
    };
    list.sections.set(section, kept);
  }
  return kept as ListStore<T>;
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
  const list = sharedList(id, maxLists);
  list.users += 1;
  if (list.expiry) clearTimeout(list.expiry);
  list.expiry = undefined;
  let released = false;
  const stops = new Set<() => void>();
  return listHandle({
    id,
    tasks: list.tasks,
    todo: sectionStore<TodoToolState>(list, 'todo'),
    todoWrite: sectionStore<TodoWriteState>(list, 'todo_write'),
    get messages() {
      list.messages ??= memoryMessageStore();
      return list.messages;
    },
    watch(onChange) {
      list.listeners.add(onChange);
      const stopTasks = list.tasks.watch?.(onChange) ?? (() => {});
      const stop = () => {
        list.listeners.delete(onChange);
        stopTasks();
        stops.delete(stop);
      };
      stops.add(stop);
      return stop;
    },
    release() {
      if (released) return;
      released = true;
      for (const stop of [...stops]) stop();
      list.users -= 1;
      if (list.users > 0) return;
      list.unusedSince = Date.now();
      list.expiry = setTimeout(() => {
        if (sharedInMemory.get(id) === list && list.users === 0) dropShared(id);
      }, keepMs);
      list.expiry.unref();
    },
  });
}

function dropShared(id: string): void {
  const list = sharedInMemory.get(id);
  if (list?.expiry) clearTimeout(list.expiry);
  sharedInMemory.delete(id);
}
