/** The input schemas of the task tools (task_create, task_update, task_get, task_list). */
import { z } from 'zod';
import type { TaskListLimits } from '../limits.js';
import { received } from '../received.js';
import { idList, objectError, record, status, taskId, text, UPDATE_STATUSES } from '../schema-fields.js';

/** The longest lease a claim takes: a week, in seconds. */
export const MAX_LEASE_SECONDS = 7 * 24 * 3600;

/** The input schemas of task_create, task_update, task_get and task_list for one set of limits. */
export function taskSchemas(limits: TaskListLimits) {
  const create = z.strictObject(
    {
      subject: text(limits.maxSubjectLength, { blank: false }).describe(
        'Brief imperative title ("Fix the login bug").',
      ),
      description: text(limits.maxDescriptionLength, { blank: true }).describe('What needs to be done.'),
      activeForm: text(limits.maxActiveFormLength, { blank: false })
        .optional()
        .describe('Shown while in progress ("Fixing the login bug").'),
      metadata: record(limits.maxMetadataDepth).optional().describe('Key/value data to attach.'),
    },
    { error: objectError('an object of arguments') },
  );

  const update = z.strictObject(
    {
      taskId: taskId().describe('Id of the task to update.'),
      subject: text(limits.maxSubjectLength, { blank: false }).optional().describe('New brief imperative title.'),
      description: text(limits.maxDescriptionLength, { blank: true }).optional().describe('New description.'),
      activeForm: text(limits.maxActiveFormLength, { blank: false })
        .optional()
        .describe('New present-continuous form shown while in progress.'),
      status: status(UPDATE_STATUSES).optional().describe('deleted removes the task.'),
      addBlocks: idList(limits.maxDependencies).optional().describe('Ids of tasks that wait for this one.'),
      addBlockedBy: idList(limits.maxDependencies).optional().describe('Ids of tasks this one waits for.'),
      owner: text(limits.maxOwnerLength, { blank: true }).optional().describe('Who works on it; empty clears.'),
      metadata: record(limits.maxMetadataDepth).optional().describe('Keys to merge; null removes a key.'),
    },
    { error: objectError('an object of arguments') },
  );

  const get = z.strictObject(
    { taskId: taskId().describe('Id of the task.') },
    { error: objectError('an object of arguments') },
  );

  const list = z.strictObject({}, { error: objectError('no arguments') });

  const claim = z.strictObject(
    {
      taskId: taskId().optional().describe('Id of the task to take; left out: the lowest-id free task.'),
      owner: text(limits.maxOwnerLength, { blank: false }).describe('Who takes it (your agent name).'),
      leaseSeconds: z
        .number({ error: (issue) => `expected a whole number of seconds, received ${received(issue.input)}` })
        .int({ error: (issue) => `expected a whole number of seconds, received ${received(issue.input)}` })
        .min(1, { error: (issue) => `expected at least 1 second, received ${received(issue.input)}` })
        .max(MAX_LEASE_SECONDS, {
          error: (issue) => `expected at most ${MAX_LEASE_SECONDS} seconds (a week), received ${received(issue.input)}`,
        })
        .optional()
        .describe('The claim lapses unless you update the task within this many seconds.'),
    },
    { error: objectError('an object of arguments') },
  );

  return { create, update, get, list, claim };
}
