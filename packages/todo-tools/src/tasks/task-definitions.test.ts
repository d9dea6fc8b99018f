// The task tools as a client sees them, answering through their handlers.
import { describe, expect, it } from 'vitest';
import type { Answer } from '../answer.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { presentationOf } from '../tool-presentation.js';
import { type TaskToolHandlers, taskClaimDefinitions, taskToolDefinitions } from './task-definitions.js';
import { taskSchemas } from './task-schemas.js';

const schemas = taskSchemas(DEFAULT_LIMITS);

/** Handlers that record each call and answer with the tool's name (structured content beside it). */
function recording() {
  const calls: unknown[][] = [];
  const answer = (name: string, ...args: unknown[]): Promise<Answer> => {
    calls.push([name, ...args]);
    return Promise.resolve({ text: `${name} answered`, isError: false, structured: { name } });
  };
  const handlers: TaskToolHandlers = {
    create: (args) => answer('create', args),
    update: (args, signal) => answer('update', args, signal),
    list: (args) => answer('list', args),
    get: (args) => answer('get', args),
    claim: (args) => answer('claim', args),
  };
  return { calls, handlers };
}

describe('taskToolDefinitions', () => {
  it('task_create, task_update, task_list and task_get, in that order, frozen, with their annotations', () => {
    const tools = taskToolDefinitions(recording().handlers, schemas, presentationOf({}));
    expect(tools.map((tool) => tool.name)).toEqual(['task_create', 'task_update', 'task_list', 'task_get']);
    expect(Object.isFrozen(tools)).toBe(true);
    expect(tools.map((tool) => tool.annotations)).toEqual([
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    ]);
  });

  it('hands each call to its handler (task_update with the call signal) and answers as presented', async () => {
    const { calls, handlers } = recording();
    const [create, update, list, get] = taskToolDefinitions(handlers, schemas, presentationOf({}));
    const signal = new AbortController().signal;
    expect(await create?.handler({ subject: 'A' }, {})).toEqual({
      content: [{ type: 'text', text: 'create answered' }],
    });
    await update?.handler({ taskId: '1' }, { signal });
    await list?.handler({}, {});
    await get?.handler({ taskId: '1' }, {});
    expect(calls).toEqual([
      ['create', { subject: 'A' }],
      ['update', { taskId: '1' }, signal],
      ['list', {}],
      ['get', { taskId: '1' }],
    ]);
    const [structured] = taskToolDefinitions(handlers, schemas, presentationOf({ structuredOutput: true }));
    expect(await structured?.handler({}, {})).toEqual({
      content: [{ type: 'text', text: 'create answered' }],
      structuredContent: { name: 'create' },
    });
    expect(structured?.outputJsonSchema).toMatchObject({ type: 'object', required: ['task'] });
  });
});

describe('taskClaimDefinitions', () => {
  it('task_claim alone, answering through the claim handler', async () => {
    const { calls, handlers } = recording();
    const tools = taskClaimDefinitions(handlers, schemas, presentationOf({ alwaysLoad: true }));
    expect(tools.map((tool) => tool.name)).toEqual(['task_claim']);
    expect(tools[0]?._meta).toEqual({ 'anthropic/alwaysLoad': true });
    await tools[0]?.handler({ owner: 'alice' }, {});
    expect(calls).toEqual([['claim', { owner: 'alice' }]]);
  });
});
