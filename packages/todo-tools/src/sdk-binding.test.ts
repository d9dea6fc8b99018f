// The binding of the tools to an SDK major, with a made-up major: what registerTool is handed, and
// the server a tool object builds once.
import { describe, expect, it } from 'vitest';
import { bindSdk, type ToolConfigOf } from './sdk-binding.js';
import { TaskToolsCore } from './tasks/task-tools-core.js';
import type { ToolCallResult, ToolDefinition } from './tool-definition.js';
import { VERSION } from './version.js';

interface Registered {
  name: string;
  config: ToolConfigOf<string>;
  handler: (args: Record<string, unknown>, context: MadeUpContext) => Promise<ToolCallResult>;
}

/** What a made-up major's handler gets: the signal in `abort`, the authenticated caller in `who` (anything, as a loose SDK type allows). */
interface MadeUpContext {
  abort: AbortSignal;
  who?: unknown;
}

/** A server of a made-up major: it keeps what it is given, and its handlers find the signal in `abort`. */
class MadeUpServer {
  readonly registered: Registered[] = [];
  constructor(
    readonly info: { name: string; version: string },
    readonly options?: { instructions: string },
  ) {}
  registerTool(name: string, config: ToolConfigOf<string>, handler: Registered['handler']): void {
    this.registered.push({ name, config, handler });
  }
}

const madeUp = bindSdk({
  newServer: (info, options) => new MadeUpServer(info, options),
  schemas: (tool) => ({ inputSchema: `schema of ${tool.name}` }),
  signal: (context: MadeUpContext) => context.abort,
  caller: (context: MadeUpContext) => context.who as string | undefined,
});

describe('bindSdk', () => {
  it("mountTools registers each definition in order, with fresh configs carrying the major's schemas", () => {
    const todos = new TaskToolsCore({ alwaysLoad: true });
    const server = new MadeUpServer({ name: 'mine', version: '1.0.0' });
    madeUp.mountTools(server, todos.definitions());
    expect(server.registered.map((tool) => tool.name)).toEqual(['task_create', 'task_update', 'task_list', 'task_get']);
    const [create] = server.registered;
    const [definition] = todos.definitions();
    expect(Object.keys(create?.config ?? {})).toEqual(['title', 'description', 'inputSchema', 'annotations', '_meta']);
    expect(create?.config).toEqual({
      title: definition?.title,
      description: definition?.description,
      inputSchema: 'schema of task_create',
      annotations: definition?.annotations,
      _meta: { 'anthropic/alwaysLoad': true },
    });
    expect(create?.config.annotations).not.toBe(definition?.annotations);
    expect(create?.config._meta).not.toBe(definition?._meta);
  });

  it("hands each handler the call's signal, found where the major keeps it", async () => {
    const todos = new TaskToolsCore({
      beforeTask: (event) => (event === 'TaskCompleted' ? new Promise<undefined>(() => {}) : undefined),
    });
    await todos.createTask({ subject: 'A', description: '' });
    const server = new MadeUpServer({ name: 'mine', version: '1.0.0' });
    madeUp.mountTools(server, todos.definitions());
    const controller = new AbortController();
    const answer = server.registered[1]?.handler({ taskId: '1', status: 'completed' }, { abort: controller.signal });
    controller.abort();
    expect(await answer).toEqual({
      content: [{ type: 'text', text: 'Interrupted: the task was not changed.' }],
      isError: true,
    });
  });

  it('hands each handler the caller the major found, when it is a non-empty string', async () => {
    const contexts: unknown[] = [];
    const server = new MadeUpServer({ name: 'mine', version: '1.0.0' });
    madeUp.mountTools(server, [
      {
        ...new TaskToolsCore().definitions()[0],
        handler: async (_args, context) => {
          contexts.push(context);
          return { content: [{ type: 'text', text: '' }] };
        },
      } as ToolDefinition,
    ]);
    const abort = new AbortController().signal;
    for (const who of ['bob', '', 42, undefined]) await server.registered[0]?.handler({}, { abort, who });
    expect(contexts).toStrictEqual([
      { signal: abort, caller: 'bob' },
      { signal: abort },
      { signal: abort },
      { signal: abort },
    ]);
  });

  it('ownServer makes one server per tool object, at first use, and registers the object on it', () => {
    const registeredOn: MadeUpServer[] = [];
    const tools = { register: (server: MadeUpServer) => void registeredOn.push(server) };
    const server = madeUp.ownServer(tools, 'raider-test');
    expect(server.info).toEqual({ name: 'raider-test', version: VERSION });
    expect(server.options).toBeUndefined();
    expect(madeUp.ownServer(tools, 'raider-test')).toBe(server);
    expect(registeredOn).toEqual([server]);
    const other = madeUp.ownServer({ register: () => {} }, 'raider-todo', 'Use the list.');
    expect(other).not.toBe(server);
    expect(other.options).toEqual({ instructions: 'Use the list.' });
  });
});
