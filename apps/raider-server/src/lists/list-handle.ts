/**
 * The list a conversation works on, wherever it lives: a folder under the data dir, a database, or
 * this process's memory. Each conversation holds its own handle. This module names the shapes
 * only and imports no adapter (memory-lists.ts, folder-lists.ts, postgres-lists.ts and
 * claude-session-list.ts each make one; list-for.ts picks the adapter).
 */
import type { MessageStore } from '@raider/tasks-registry';
import type { ListStore, ListStores, TaskStore } from '@raider/todo-tools/v2';

/** The families kept whole (the task list is kept by record). */
export type WholeSection = 'todo' | 'todo_write';

/**
 * A list as an adapter opens it for one conversation: the store packages' own `ListStores` (the
 * task store, the other families' stores, a watch), the inboxes of the list's agents, its id and
 * `release()`.
 */
export interface OpenedList extends ListStores {
  readonly id: string;
  /**
   * The inboxes of the list's agents (issue 27), shared by everyone on the list: this process's
   * conversations for a list in memory, every process on the folder or the database otherwise.
   */
  readonly messages: MessageStore;
  /** Called once when the conversation that opened the list ends (an in-memory list may go). */
  release(): void;
}

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

/** The handle of an opened list (its id read at each use: a list that follows Claude Code may move). */
export function listHandle(list: OpenedList): ListHandle {
  return {
    get id() {
      return list.id;
    },
    tasks: () => list.tasks,
    store: <T>(section: WholeSection) => (section === 'todo' ? list.todo : list.todoWrite) as unknown as ListStore<T>,
    messages: () => list.messages,
    watch: (onChange) => list.watch(onChange),
    release: () => list.release(),
  };
}

/**
 * `list` with `tasks` as its task store, the rest its own (its id read at each use): the list as
 * the task-list feature gets it when the messaging observes its task store for wake-ups.
 */
export function withTaskStore(list: ListHandle, tasks: TaskStore): ListHandle {
  return {
    get id() {
      return list.id;
    },
    tasks: () => tasks,
    store: <T>(section: WholeSection) => list.store<T>(section),
    messages: () => list.messages(),
    watch: (onChange) => list.watch(onChange),
    release: () => list.release(),
  };
}
