// A task record for the unit tests of the store's modules: pending, unlinked, its subject from its id.
import type { TaskRecord } from '@raider/todo-tools';

/** Task `id` as a new task is stored (`Task <id>`, pending, no links), with `extra` over it. */
export const taskRecord = (id: string, extra: Partial<TaskRecord> = {}): TaskRecord => ({
  id,
  subject: `Task ${id}`,
  description: '',
  status: 'pending',
  blocks: [],
  blockedBy: [],
  ...extra,
});
