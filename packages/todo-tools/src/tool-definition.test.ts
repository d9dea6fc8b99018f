// The tools as SDK-neutral definitions: what both entries' adapters mount.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TaskToolsCore } from './tasks/task-tools-core.js';
import { TodoToolCore } from './todo/todo-tool-core.js';
import { TodoWriteToolCore } from './todo-write/todo-write-tool-core.js';

describe('tool definitions', () => {
  it('each family hands out its tools in order, built once and frozen', () => {
    const todos = new TaskToolsCore();
    expect(todos.definitions().map((tool) => tool.name)).toEqual([
      'task_create',
      'task_update',
      'task_list',
      'task_get',
    ]);
    expect(todos.claimDefinitions().map((tool) => tool.name)).toEqual(['task_claim']);
    const todoWrite = new TodoWriteToolCore();
    expect(todoWrite.definitions().map((tool) => tool.name)).toEqual(['todo_write']);
    expect(new TodoToolCore().definitions().map((tool) => tool.name)).toEqual(['todo']);
    expect(todos.definitions()).toBe(todos.definitions());
    expect(todos.claimDefinitions()).toBe(todos.claimDefinitions());
    expect(todoWrite.definitions()).toBe(todoWrite.definitions());
    for (const tool of [...todos.definitions(), ...todoWrite.definitions()]) {
      expect(Object.isFrozen(tool)).toBe(true);
      expect(Object.isFrozen(tool.inputJsonSchema)).toBe(true);
      expect(Object.isFrozen(tool.annotations)).toBe(true);
    }
  });

  it('carry what the options present: output schemas only with structuredOutput, _meta only with alwaysLoad', () => {
    const [plain] = new TaskToolsCore().definitions();
    expect(plain).not.toHaveProperty('outputSchema');
    expect(plain).not.toHaveProperty('outputJsonSchema');
    expect(plain).not.toHaveProperty('_meta');
    const [shown] = new TaskToolsCore({ structuredOutput: true, alwaysLoad: true }).definitions();
    expect(shown?.outputJsonSchema).toMatchObject({ type: 'object', required: ['task'] });
    expect(shown?._meta).toEqual({ 'anthropic/alwaysLoad': true });
    // The JSON Schema clients are shown is zod's draft-07 output, as the v1 SDK writes it.
    expect(shown?.inputJsonSchema).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['subject', 'description'],
      additionalProperties: false,
    });
  });

  it('a handler answers as the direct API does, on the same list, and refuses bad input in a result', async () => {
    const todos = new TaskToolsCore({ structuredOutput: true });
    const [create, update, list] = todos.definitions();
    expect(await create?.handler({ subject: 'A', description: '' }, {})).toMatchObject({
      content: [{ type: 'text', text: 'Task #1 created successfully: A' }],
      structuredContent: { task: { id: '1' } },
    });
    expect(await update?.handler({ taskId: '1', status: 'done' }, {})).toEqual({
      content: [
        {
          type: 'text',
          text: 'Error: status: expected one of pending, in_progress, completed, deleted, received "done"',
        },
      ],
      isError: true,
    });
    expect(await list?.handler(null, {})).toMatchObject({ isError: true });
    expect(todos.listTasks()).toBe('#1 [pending] A');
    const todo = new TodoToolCore();
    const [tool] = todo.definitions();
    expect(await tool?.handler({ action: 'create', subject: 'B' }, {})).toEqual({
      content: [{ type: 'text', text: 'Created #1: B (pending)' }],
    });
    expect(todo.snapshot().tasks).toHaveLength(1);
  });

  it('the task_update handler passes on the call signal: aborted during TaskCompleted, it answers Interrupted', async () => {
    const todos = new TaskToolsCore({
      beforeTask: (event) => (event === 'TaskCompleted' ? new Promise<undefined>(() => {}) : undefined),
    });
    await todos.createTask({ subject: 'A', description: '' });
    const update = todos.definitions()[1];
    const controller = new AbortController();
    const answer = update?.handler({ taskId: '1', status: 'completed' }, { signal: controller.signal });
    controller.abort();
    expect(await answer).toEqual({
      content: [{ type: 'text', text: 'Interrupted: the task was not changed.' }],
      isError: true,
    });
    expect(todos.getTask('1')).toContain('Status: pending');
  });
});

/** The package's modules (not tests, benches or test support), as paths relative to src/. */
function modules(): string[] {
  const source = new URL('.', import.meta.url).pathname;
  return (readdirSync(source, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !/\.(test|bench|property)\.ts$|\.large\.test\.ts$/.test(file))
    .map((file) => relative(source, join(source, file)));
}

const read = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');

describe('the layers', () => {
  it('the core imports no MCP SDK: only the adapters (v1/, v2/) and test support do', () => {
    const files = modules().filter((file) => !/^(v1|v2|testing)\//.test(file));
    expect(files.length).toBeGreaterThan(20);
    const sdkImport = /(from\s*|import\s*\(\s*)['"]@modelcontextprotocol\//;
    expect(files.filter((file) => sdkImport.test(read(file)))).toEqual([]);
  });

  it('store/ imports no family (tasks/, todo/, todo-write/): a store names the shapes of types.ts', () => {
    const files = modules().filter((file) => file.startsWith('store/'));
    expect(files.length).toBeGreaterThan(2);
    const familyImport = /from\s*['"]\.\.\/(tasks|todo|todo-write)\//;
    expect(files.filter((file) => familyImport.test(read(file)))).toEqual([]);
  });
});
