/** Durable lists in folders under the data dir (@raider/file-store), one handle per conversation. */
import { openList } from '@raider/file-store';
import type { TaskStore } from '@raider/todo-tools/v2';
import type { Logger } from '../log.js';
import { type ListHandle, listHandle } from './list-handle.js';

/**
 * List `id`'s folder under `dataDir`, opened for one conversation: a task file that cannot be
 * read is logged by name (and left untouched). @throws ListIdError for an id that names no folder.
 */
export function folderList(dataDir: string, id: string, log: Logger | undefined): ListHandle {
  const folder = openList(dataDir, id, { onProblem: (problem) => log?.warn(problem) });
  // A conversation reads its list whole once; after that, only what the change feed names.
  const store = folder.tasks;
  const tasks: TaskStore = {
    load: async () => {
      const snapshot = await store.load();
      log?.debug(`list ${id}: read whole (${snapshot.tasks.length} tasks, change ${snapshot.seq})`);
      return snapshot;
    },
    changesSince: (seq) => store.changesSince(seq),
    transact: (seq, fn) => store.transact(seq, fn),
    watch: (onChange) => store.watch?.(onChange) ?? (() => {}),
  };
  return listHandle({
    id,
    tasks,
    todo: folder.todo,
    todoWrite: folder.todoWrite,
    // `.messages/` in the list folder (one file per message; leases as renames every process sees).
    messages: folder.messages,
    watch: (onChange) => folder.watch(onChange),
    release: () => folder.close(),
  });
}
