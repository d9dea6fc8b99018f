/** Lists shared in memory by one server's conversations that name them (no data dir, no database). */
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

/** The store of `section` of `list`, shared by its conversations (made by the first to open the list). */
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
 * The lists one server shares in memory between its conversations that name them (no data dir,
 * no database): part of the server's runtime, so two servers in one process never share one.
 */
export class MemoryLists {
  private readonly shared = new Map<string, SharedList>();

  /** How many lists are shared in memory now (used or waiting out their keep time). */
  count(): number {
    return this.shared.size;
  }

  /**
   * List `id`, shared in memory by the conversations that name it. It lives while a conversation
   * uses it, plus `keepMs` (a client reconnecting finds it); the number of such lists is bounded:
   * unused ones make room, oldest first, and beyond that the list is refused.
   * @throws SharedListLimitError when every one of `maxLists` lists is in use.
   */
  open(id: string, options: MemoryListOptions = {}): ListHandle {
    const keepMs = options.keepMs ?? 30 * 60_000;
    const list = this.sharedList(id, options.maxLists ?? 100);
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
      release: () => {
        if (released) return;
        released = true;
        for (const stop of [...stops]) stop();
        this.leave(id, list, keepMs);
      },
    });
  }

  /** Drops every list and its keep timer (the server's runtime closes). */
  close(): void {
    for (const id of [...this.shared.keys()]) this.drop(id);
  }

  /** A conversation left `list`: once nobody uses it, it is kept `keepMs`, then dropped. */
  private leave(id: string, list: SharedList, keepMs: number): void {
    list.users -= 1;
    if (list.users > 0) return;
    list.unusedSince = Date.now();
    list.expiry = setTimeout(() => {
      if (this.shared.get(id) === list && list.users === 0) this.drop(id);
    }, keepMs);
    list.expiry.unref();
  }

  /**
   * The list `id` shared in memory, made when no conversation has it yet (an unused one makes room
   * when `maxLists` are kept).
   * @throws SharedListLimitError when every one of `maxLists` lists is in use.
   */
  private sharedList(id: string, maxLists: number): SharedList {
    let shared = this.shared.get(id);
    if (!shared) {
      if (this.shared.size >= maxLists) {
        const unused = [...this.shared.entries()]
          .filter(([, list]) => list.users === 0)
          .sort(([, a], [, b]) => a.unusedSince - b.unusedSince)[0];
        if (!unused) {
          throw new SharedListLimitError(
            `${maxLists} lists are shared in memory and each is in use, the most allowed; end a session, or keep lists on disk with --data-dir`,
          );
        }
        this.drop(unused[0]);
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
      this.shared.set(id, shared);
    }
    return shared;
  }

  private drop(id: string): void {
    const list = this.shared.get(id);
    if (list?.expiry) clearTimeout(list.expiry);
    this.shared.delete(id);
  }
}
