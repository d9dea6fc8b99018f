// The task tools end to end through a real client and server of each SDK major, with the same
// golden answers (where the protocol itself differs: v2/tool-registrar.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { closeClients, SDK_MAJORS } from '../testing/sdk-majors.js';

afterEach(closeClients);

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe.each(SDK_MAJORS)('SDK v$major', ({ TaskTools, TodoWriteTool, connect, newServer }) => {
  describe('what the model reads (structured output off, the default)', () => {
    it('every result is the text alone and no tool declares an output schema: Claude Code shows its model the text', async () => {
      const todos = new TaskTools();
      const client = await connect(todos.server);
      for (const tool of (await client.listTools()).tools) expect(tool).not.toHaveProperty('outputSchema');
      const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
      expect(await call('task_create', { subject: 'Design the API', description: 'REST' })).toEqual({
        content: [{ type: 'text', text: 'Task #1 created successfully: Design the API' }],
      });
      await call('task_create', { subject: 'Build it', description: '' });
      expect(await call('task_update', { taskId: '2', addBlockedBy: ['1'], owner: 'bob' })).toEqual({
        content: [{ type: 'text', text: 'Updated task #2 owner, blockedBy' }],
      });
      expect(await call('task_list')).toEqual({
        content: [{ type: 'text', text: '#1 [pending] Design the API\n#2 [pending] Build it (bob) [blocked by #1]' }],
      });
      expect(await call('task_get', { taskId: '2' })).toEqual({
        content: [{ type: 'text', text: 'Task #2: Build it\nStatus: pending\nDescription: \nBlocked by: #1' }],
      });
      expect(await call('task_get', { taskId: '9' })).toEqual({ content: [{ type: 'text', text: 'Task not found' }] });
    });

    it('alwaysLoad marks every tool for Claude Code (`anthropic/alwaysLoad`), and nothing else changes', async () => {
      const plain = (await (await connect(new TaskTools().server)).listTools()).tools;
      const loaded = (await (await connect(new TaskTools({ alwaysLoad: true }).server)).listTools()).tools;
      for (const tool of plain) expect(tool._meta?.['anthropic/alwaysLoad']).toBeUndefined();
      expect(loaded.map((tool) => tool._meta?.['anthropic/alwaysLoad'])).toEqual([true, true, true, true]);
      expect(loaded.map(({ _meta, ...rest }) => rest)).toEqual(plain.map(({ _meta, ...rest }) => rest));
    });
  });

  describe('the task tools over MCP', () => {
    it('lists four tools with schemas, output schemas (structured output on) and honest annotations', async () => {
      const client = await connect(new TaskTools({ structuredOutput: true }).server);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['task_create', 'task_update', 'task_list', 'task_get']);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.task_create?.inputSchema).toMatchObject({
        type: 'object',
        required: ['subject', 'description'],
        additionalProperties: false,
      });
      expect(byName.task_update?.inputSchema.properties?.status).toMatchObject({
        enum: ['pending', 'in_progress', 'completed', 'deleted'],
      });
      for (const tool of tools) {
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.annotations?.openWorldHint).toBe(false);
        expect(tool.description?.length).toBeLessThan(200);
      }
      // Read-only and idempotent: Claude Code 2.1.332 retries an idempotent call after a lost session.
      expect(byName.task_list?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(byName.task_get?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(byName.task_update?.annotations?.destructiveHint).toBe(true);
      expect(byName.task_create?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    });

    it('runs a session end to end with Claude Code answers and, with structured output on, structured content', async () => {
      const todos = new TaskTools({ structuredOutput: true });
      const client = await connect(todos.server);
      const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

      const created = await call('task_create', { subject: 'Design the API', description: 'REST' });
      expect(created).toEqual({
        content: [{ type: 'text', text: 'Task #1 created successfully: Design the API' }],
        structuredContent: {
          task: {
            id: '1',
            content: 'Design the API',
            status: 'pending',
            activeForm: 'Design the API',
            description: 'REST',
            blocks: [],
            blockedBy: [],
          },
        },
      });
      await call('task_create', { subject: 'Add auth endpoints', description: 'login', activeForm: 'Adding auth' });
      const updated = await call('task_update', { taskId: '2', owner: 'alice', addBlockedBy: ['1'] });
      expect(text(updated)).toBe('Updated task #2 owner, blockedBy');
      expect(updated.structuredContent).toMatchObject({
        success: true,
        taskId: '2',
        updatedFields: ['owner', 'blockedBy'],
        task: { id: '2', owner: 'alice', blockedBy: ['1'] },
      });
      expect(text(await call('task_list'))).toBe(
        '#1 [pending] Design the API\n#2 [pending] Add auth endpoints (alice) [blocked by #1]',
      );
      expect(text(await call('task_get', { taskId: '1' }))).toBe(
        'Task #1: Design the API\nStatus: pending\nDescription: REST\nBlocks: #2',
      );
      const missing = await call('task_get', { taskId: '9' });
      expect(missing).toEqual({
        content: [{ type: 'text', text: 'Task not found' }],
        structuredContent: { task: null },
      });
      const notFound = await call('task_update', { taskId: '9', status: 'completed' });
      expect(notFound.isError).toBeFalsy();
      expect(text(notFound)).toBe('Task not found');
      expect(text(await call('task_update', { taskId: '1', status: 'deleted' }))).toBe('Updated task #1 deleted');
      const list = await call('task_list');
      expect(text(list)).toBe('#2 [pending] Add auth endpoints (alice)');
      expect(list.structuredContent).toEqual({ tasks: todos.tasks() });
      await call('task_update', { taskId: '2', status: 'deleted' });
      expect(await call('task_list')).toEqual({
        content: [{ type: 'text', text: 'No tasks found' }],
        structuredContent: { tasks: [] },
      });
    });

    it('bad input is an error result saying what was expected and received; the list is unchanged', async () => {
      const todos = new TaskTools();
      const client = await connect(todos.server);
      await client.callTool({ name: 'task_create', arguments: { subject: 'A', description: '' } });
      const before = todos.tasks();
      const cases: [string, Record<string, unknown>, string][] = [
        ['task_create', { subject: 'B', description: '', priority: 1 }, 'Error: unknown argument "priority"'],
        [
          'task_update',
          { taskId: '1', status: 'done' },
          'Error: status: expected one of pending, in_progress, completed, deleted, received "done"',
        ],
        ['task_update', { taskId: true }, 'Error: taskId: expected a task id such as "1", received true'],
        [
          'task_update',
          { taskId: '1', addBlocks: ['5'] },
          'Error: addBlocks: expected ids of existing tasks, received "5"',
        ],
        ['task_get', {}, 'Error: taskId: expected a task id such as "1", received nothing'],
        ['task_list', { all: true }, 'Error: unknown argument "all"'],
      ];
      for (const [name, args, message] of cases) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        expect(text(result)).toContain(message);
      }
      expect(todos.tasks()).toEqual(before);
    });

    it('mounts on a server you own beside another family, sharing the one list', async () => {
      const todos = new TaskTools();
      const server = newServer('mine');
      todos.register(server);
      new TodoWriteTool().register(server);
      const client = await connect(server);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'task_create',
        'task_update',
        'task_list',
        'task_get',
        'todo_write',
      ]);
      await client.callTool({ name: 'task_create', arguments: { subject: 'A', description: '' } });
      expect(todos.listTasks()).toBe('#1 [pending] A');
    });

    it('a connection closed while TaskCompleted runs aborts the call: task_update saves nothing', async () => {
      let release: (verdict: undefined) => void = () => {};
      let hookStarted: () => void = () => {};
      const hookRuns = new Promise<void>((resolve) => {
        hookStarted = resolve;
      });
      const todos = new TaskTools({
        beforeTask: (event) => {
          if (event !== 'TaskCompleted') return undefined;
          hookStarted();
          return new Promise<undefined>((resolve) => {
            release = resolve;
          });
        },
      });
      await todos.createTask({ subject: 'A', description: '' });
      const client = await connect(todos.server);
      const call = client.callTool({ name: 'task_update', arguments: { taskId: '1', status: 'completed' } });
      await hookRuns;
      await client.close();
      await expect(call).rejects.toThrow('Connection closed');
      // The hook lets it go on after all: too late, the call's signal fired when the connection closed.
      release(undefined);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(todos.getTask('1')).toContain('Status: pending');
      expect((await todos.updateTask({ taskId: '1', owner: 'bob' })).text).toBe('Updated task #1 owner');
    });

    it('builds each server once', () => {
      const todos = new TaskTools();
      const todoWrite = new TodoWriteTool();
      expect(todos.server).toBe(todos.server);
      expect(todoWrite.server).toBe(todoWrite.server);
      expect(todoWrite.server).not.toBe(todos.server);
    });
  });
});
