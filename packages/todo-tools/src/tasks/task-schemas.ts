/** The input schemas of the task tools (task_create, task_update, task_get, task_list). */
import { z } from 'zod';
import type { TodoLimits } from '../limits.js';
import { idList, objectError, record, status, taskId, text, UPDATE_STATUSES } from '../schema-fields.js';

/** The input schemas of task_create, task_update, task_get and task_list for one set of limits. */
export function taskSchemas(limits: TodoLimits) {
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

  return { create, update, get, list };
}
