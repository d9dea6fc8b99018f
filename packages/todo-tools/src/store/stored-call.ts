/**
 * The one path by which a tool runs a call on a stored list: inside one transaction of the store,
 * the stored state is taken into memory, the call applied, and the state written back when the
 * call changed it. The `todo` family goes this way (the task list is kept by record instead:
 * TaskTools catches up from its store's change feed).
 */
import type { ListStore } from './list-store.js';

/** How a tool's list in memory meets its store. */
export interface MemoryState<S> {
  /** Takes over a stored state (undefined: none stored yet). Throws when it cannot be used. */
  load(state: S | undefined): void;
  /** The state to store now. */
  save(): S;
}

/**
 * Runs `call` on the list of `store` held in `memory`, in one transaction: load, apply, and save
 * when `changed(result)`. The result comes once the change is durable. When the store fails (or
 * what it holds cannot be loaded), the list in memory, which may be ahead of what was saved, is
 * taken back from the store (best effort) and the error is rethrown for the caller to answer.
 */
export async function runStored<S, R>(
  store: ListStore<S>,
  memory: MemoryState<S>,
  call: () => R | Promise<R>,
  changed: (result: R) => boolean,
): Promise<R> {
  try {
    return await store.transact(async (current) => {
      memory.load(current);
      const result = await call();
      return changed(result) ? { next: memory.save(), result } : { result };
    });
  } catch (error) {
    await store
      .load()
      .then((saved) => memory.load(saved))
      .catch(() => {});
    throw error;
  }
}
