/**
 * Where the state of todo_write and of the `todo` family lives between calls, whole: each call
 * loads the current state, applies itself and hands the next state back inside one transaction.
 * (The task list is kept by record instead: see task-store.ts.)
 */
import { serial } from '../serial.js';
import type { TodoSnapshot, TodoWriteItem } from '../types.js';
import type { TaskStore } from './task-store.js';

/** What a transaction's function returns: the state to write (none: nothing changed) and its result. */
export interface ListTransaction<T, R> {
  next?: T;
  result: R;
}

/**
 * Storage of one list's state of one family.
 *
 * - `load()` resolves to the latest state, or `undefined` when there is none yet; it rejects (with
 *   a message a person can act on) when the state cannot be read, and then nothing is written.
 * - `transact(fn)` runs `fn` on the current state with exclusive access (across processes, for a
 *   shared store), writes `next` when given, and resolves with `result` only once `next` is durable.
 *   When it cannot tell whether `next` was written, it rejects with an error whose
 *   `mayHaveBeenSaved` property is `true` (as `TaskStore` does).
 */
export interface ListStore<T> {
  load(): Promise<T | undefined>;
  transact<R>(fn: (current: T | undefined) => ListTransaction<T, R> | Promise<ListTransaction<T, R>>): Promise<R>;
}

/** todo_write's state: the last list it accepted. */
export interface TodoWriteState {
  todos: TodoWriteItem[];
}

/** The `todo` family's state: its snapshot. */
export type TodoToolState = TodoSnapshot;

/**
 * A store in memory, shared by whoever holds it (several conversations of one process, tests).
 * Transactions run one at a time; states are copied in and out, so no caller shares objects.
 */
export function memoryListStore<T>(initial?: T): ListStore<T> {
  let state: T | undefined = initial === undefined ? undefined : structuredClone(initial);
  const queue = serial();
  return {
    async load() {
      return state === undefined ? undefined : structuredClone(state);
    },
    transact<R>(fn: (current: T | undefined) => ListTransaction<T, R> | Promise<ListTransaction<T, R>>): Promise<R> {
      return queue(async () => {
        const { next, result } = await fn(state === undefined ? undefined : structuredClone(state));
        if (next !== undefined) state = structuredClone(next);
        return result;
      });
    },
  };
}

/**
 * Every store of one list, as a store package hands them out: the task list by record, the other
 * families' states whole, and a wake-up when the list may have changed elsewhere.
 */
export interface ListStores {
  /** The task list, by record, with its change feed (for one holder: one TaskTools). */
  readonly tasks: TaskStore;
  /** The `todo` family's snapshot, whole. */
  readonly todo: ListStore<TodoToolState>;
  /** todo_write's last list, whole. */
  readonly todoWrite: ListStore<TodoWriteState>;
  /** Calls `onChange` (any number of times) when the list may have changed elsewhere; returns a function that stops it. */
  watch(onChange: () => void): () => void;
}
