/**
 * The plainest task (task 1, subject "A", pending, nothing else set) in the two shapes the tests of
 * tasks/ hand around: as a store keeps it (PLAIN_RECORD) and as onUpdate hands it out (PLAIN_ITEM,
 * what `toItem` makes of PLAIN_RECORD: activeForm defaults to the subject). Spread it to vary a
 * field (`{ ...PLAIN_ITEM, id: '2' }`). Test support only: not part of any entry.
 */
import type { TaskRecord } from '../store/task-store.js';
import type { TaskItem } from '../types.js';

/** Task 1 as a store keeps it. */
export const PLAIN_RECORD: TaskRecord = {
  id: '1',
  subject: 'A',
  description: '',
  status: 'pending',
  blocks: [],
  blockedBy: [],
};

/** Task 1 as onUpdate hands it out (todo_write's item shape plus the task's fields). */
export const PLAIN_ITEM: TaskItem = {
  id: '1',
  content: 'A',
  status: 'pending',
  activeForm: 'A',
  description: '',
  blocks: [],
  blockedBy: [],
};
