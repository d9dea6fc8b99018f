/**
 * One conversation: an McpServer with one task-list family, the question tool, the registry of
 * open questions, and the resources raider://tasks and raider://work. Over stdio there is one;
 * over HTTP one per MCP session, each isolated.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type Answerer, AskError, type Asker, AskTools, elicitationAnswerer } from '@raider/ask-tools';
import { TaskRegistry } from '@raider/tasks-registry';
import {
  type ListStore,
  memoryStore,
  type TaskListState,
  type TodoItem,
  type TodoLimits,
  type TodoSnapshot,
  TodoTool,
  TodoTools,
  type TodoWriteState,
} from '@raider/todo-tools';
import { claudeName, raiderInput } from '@raider/tool-names';
import { openListFile } from '../lists/list-file.js';
import { type Logger, silent } from '../log.js';
import type { Family, Names } from '../types.js';
import { VERSION } from '../version.js';
import { instructions } from './instructions.js';

/** The resource with the conversation's task list. */
export const TASKS_URI = 'raider://tasks';
/** The resource with the registry's entries (open and ended questions). */
export const WORK_URI = 'raider://work';
/** The specification's error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/** What a conversation is made of. */
export interface ConversationOptions {
  family: Family;
  names: Names;
  /** How long a question may wait for its answer, in ms. */
  askTimeoutMs: number;
  /** List limits; any left out take the defaults of DEFAULT_LIMITS. */
  limits?: Partial<TodoLimits>;
  log?: Logger;
  /** The list the conversation works on when it is shared or durable; without it the list lives in the conversation. */
  list?: ListHandle;
  /** Called after every change of the list or of the registry (a live board redraws). */
  onChange?: () => void;
  /**
   * A second way to reach a person (the live board), asked after the client's elicitation: when
   * both can ask, the question goes to both and the first outcome wins; the other is withdrawn.
   */
  fallbackAnswerer?: Answerer;
}

/** A named list and the store of each family's section of it. */
export interface ListHandle {
  readonly id: string;
  store<T>(section: 'tasks' | 'todo' | 'todo_write'): ListStore<T>;
  /** Called once when the conversation that opened the handle ends (an in-memory list may go). */
  release?(): void;
}

/** How long an unused in-memory list is kept, and how many there may be at once. */
export interface MemoryListOptions {
  /** An in-memory list nobody uses is dropped after this long, in ms (default 30 minutes). */
  keepMs?: number;
  /** Most in-memory lists at once (default 100); lists nobody uses make room first. */
  maxLists?: number;
}

/** Too many lists are shared in memory to open another (each is in use). */
export class SharedListLimitError extends Error {
  readonly code = 'TOO_MANY_SHARED_LISTS';
  constructor(message: string) {
    super(message);
    this.name = 'SharedListLimitError';
  }
}

interface SharedList {
  sections: Map<string, ListStore<unknown>>;
  /** Conversations using the list now. */
  users: number;
  /** When the last user left (for the oldest-first eviction). */
  unusedSince: number;
  expiry: NodeJS.Timeout | undefined;
}

const sharedInMemory = new Map<string, SharedList>();

/** How many lists are shared in memory now (used or waiting out their keep time). */
export function sharedListCount(): number {
  return sharedInMemory.size;
}

/**
 * The list a conversation works on: `id`'s file under the data dir when there is one, else a
 * list shared in memory by this process's conversations; `undefined` (the conversation's own
 * list, in memory) without an id.
 * @throws SharedListLimitError when a new in-memory list would pass `options.maxLists`.
 */
export function listFor(
  dataDir: string | undefined,
  id: string | undefined,
  options: MemoryListOptions = {},
): ListHandle | undefined {
  if (id === undefined) return undefined;
  return dataDir ? openListFile(dataDir, id) : memoryList(id, options);
}

/**
 * A list shared in memory by the conversations of this process that name it (no data dir). It
 * lives while a conversation uses it, plus `keepMs` (a client reconnecting finds it); the number
 * of such lists is bounded: unused ones make room, oldest first, and beyond that the list is
 * refused.
 * @throws SharedListLimitError when every one of `maxLists` lists is in use.
 */
export function memoryList(id: string, options: MemoryListOptions = {}): ListHandle {
  const keepMs = options.keepMs ?? 30 * 60_000;
  const maxLists = options.maxLists ?? 100;
  let shared = sharedInMemory.get(id);
  if (!shared) {
    if (sharedInMemory.size >= maxLists) {
      const unused = [...sharedInMemory.entries()]
        .filter(([, list]) => list.users === 0)
        .sort(([, a], [, b]) => a.unusedSince - b.unusedSince)[0];
      if (!unused) {
        throw new SharedListLimitError(
          `${maxLists} lists are shared in memory and each is in use, the most allowed; end a session, or keep lists on disk with --data-dir`,
        );
      }
      dropShared(unused[0]);
    }
    shared = { sections: new Map(), users: 0, unusedSince: Date.now(), expiry: undefined };
    sharedInMemory.set(id, shared);
  }
  const list = shared;
  list.users += 1;
  if (list.expiry) clearTimeout(list.expiry);
  list.expiry = undefined;
  let released = false;
  return {
    id,
    store<T>(section: string): ListStore<T> {
      const store = list.sections.get(section) ?? memoryStore<unknown>();
      list.sections.set(section, store);
      return store as ListStore<T>;
    },
    release() {
      if (released) return;
      released = true;
      list.users -= 1;
      if (list.users > 0) return;
      list.unusedSince = Date.now();
      list.expiry = setTimeout(() => {
        if (sharedInMemory.get(id) === list && list.users === 0) dropShared(id);
      }, keepMs);
      list.expiry.unref();
    },
  };
}

function dropShared(id: string): void {
  const list = sharedInMemory.get(id);
  if (list?.expiry) clearTimeout(list.expiry);
  sharedInMemory.delete(id);
}

/** A running conversation. */
export interface Conversation {
  readonly server: McpServer;
  readonly registry: TaskRegistry;
  readonly family: Family;
  /** The id of the shared or durable list, if the conversation works on one. */
  readonly listId: string | undefined;
  /** The task list as raider://tasks shows it. */
  listState(): Promise<unknown>;
  /** The registry's entries as plain data (raider://work). */
  work(): unknown[];
  /** Tells the conversation its list changed elsewhere (another process or session wrote it). */
  listChangedElsewhere(): void;
  /** Ends every open question with `reason` (each tool call answers that it was withdrawn). */
  endQuestions(reason: string): void;
  /** Ends open questions and closes the server. */
  close(reason: string): Promise<void>;
}

type RegisterTool = McpServer['registerTool'];

/**
 * A view of `server` whose registerTool mounts each tool under its Claude Code name and turns
 * the arguments of a call back into raider's (seed 003) before the tool sees them.
 */
function underClaudeNames(server: McpServer): McpServer {
  const registerTool = ((name: string, config: unknown, handler: (...a: unknown[]) => unknown) =>
    server.registerTool(
      claudeName(name) ?? name,
      config as never,
      ((args: Record<string, unknown>, extra: unknown) => handler(raiderInput(name, args), extra)) as never,
    )) as unknown as RegisterTool;
  return { registerTool } as McpServer;
}

/** JSON of registry entries without the functions and promises they hold. */
function plainEntries(registry: TaskRegistry): unknown[] {
  return registry
    .entries()
    .map((entry) =>
      Object.fromEntries(Object.entries(entry).filter(([, v]) => typeof v !== 'function' && !(v instanceof Promise))),
    );
}

/**
 * One asker from up to two: either alone, or both at once where the first outcome (an answer,
 * a decline, ...) wins and the other is withdrawn. Forms (AskUserQuestion) go to the first only.
 */
export function firstOf(first: Asker | undefined, second: Asker | undefined): Asker | undefined {
  if (!first || !second) return first ?? second;
  const both: Asker = (question, options, signal) => {
    const loser = new AbortController();
    const shared = AbortSignal.any([signal, loser.signal]);
    return new Promise<string | undefined>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        loser.abort(new AskError('aborted', 'it was answered elsewhere'));
        fn();
      };
      for (const asker of [first, second]) {
        asker(question, options, shared).then(
          (answer) => settle(() => resolve(answer)),
          (error) => settle(() => reject(error)),
        );
      }
    });
  };
  if (first.form) both.form = first.form;
  return both;
}

/** Builds a conversation. */
export function createConversation(options: ConversationOptions): Conversation {
  const log = options.log ?? silent;
  const server = new McpServer(
    { name: 'raider-server', version: VERSION },
    {
      capabilities: { resources: { subscribe: true, listChanged: true } },
      instructions: instructions(options.family, options.names),
    },
  );
  const registry = new TaskRegistry();
  const subscribed = new Set<string>();
  const changed = (uri: string) => {
    if (subscribed.has(uri)) server.server.sendResourceUpdated({ uri }).catch(() => {});
    options.onChange?.();
  };

  // The task-list family.
  const mount = options.names === 'claude' ? underClaudeNames(server) : server;
  let listState: () => Promise<unknown>;
  const list = options.list;
  const limits = options.limits ?? {};
  if (options.family === 'todo') {
    const store = list?.store<TodoSnapshot>('todo');
    const todo = new TodoTool({ onUpdate: () => changed(TASKS_URI), limits, ...(store ? { store } : {}) });
    todo.register(mount);
    listState = async () => ({ family: 'todo', ...((store && (await store.load())) ?? todo.snapshot()) });
  } else if (options.family === 'todo_write') {
    const store = list?.store<TodoWriteState>('todo_write');
    let todos: TodoItem[] = [];
    const tools = new TodoTools({
      limits,
      onUpdate: (items) => {
        todos = items as TodoItem[];
        changed(TASKS_URI);
      },
      ...(store ? { todoWriteStore: store } : {}),
    });
    tools.registerTodoWrite(mount);
    listState = async () => ({ family: 'todo_write', todos: (store && (await store.load())?.todos) ?? todos });
  } else {
    const store = list?.store<TaskListState>('tasks');
    const tools = new TodoTools({
      onUpdate: () => changed(TASKS_URI),
      limits,
      ...(store ? { taskStore: store } : {}),
    });
    tools.registerTaskTools(mount);
    listState = async () => ({ family: 'tasks', tasks: (store && (await store.load())?.tasks) ?? tools.tasks() });
  }

  // The question tool. Every question in flight is an `ask` entry whose stop withdraws it.
  let stopReason = 'the question was withdrawn';
  const elicit = elicitationAnswerer(server, { timeoutMs: options.askTimeoutMs });
  const track = async <T>(description: string, signal: AbortSignal, run: (signal: AbortSignal) => Promise<T>) => {
    const id = registry.nextId('ask');
    const controller = new AbortController();
    const promise = run(AbortSignal.any([signal, controller.signal]));
    registry.add({
      id,
      kind: 'ask',
      recipient: 'main',
      description,
      stop: () => controller.abort(new AskError('aborted', stopReason)),
      promise,
    });
    log.debug(`${id} asked: ${description}`);
    try {
      const answer = await promise;
      registry.finish(id, 'completed');
      return answer;
    } catch (error) {
      registry.finish(id, controller.signal.aborted || signal.aborted ? 'killed' : 'failed');
      throw controller.signal.aborted ? controller.signal.reason : error;
    }
  };
  const answerer: Answerer = () => {
    const asker = firstOf(elicit(), options.fallbackAnswerer?.());
    if (!asker) return undefined;
    const tracked: Asker = (question, choices, signal) => track(question, signal, (s) => asker(question, choices, s));
    const form = asker.form;
    if (form) {
      tracked.form = (questions, signal) =>
        track(questions.map((q) => q.question).join(' / '), signal, (s) => form(questions, s));
    }
    return tracked;
  };
  const ask = new AskTools({ answerer, timeoutMs: options.askTimeoutMs });
  if (options.names === 'claude') ask.registerAskUserQuestion(server);
  else ask.register(server);
  registry.on('added', () => changed(WORK_URI));
  registry.on('finished', () => changed(WORK_URI));

  // Resources, with subscriptions (McpServer does not implement resources/subscribe itself).
  const json = (uri: URL, value: unknown) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
  });
  server.registerResource(
    'tasks',
    TASKS_URI,
    { title: 'Task list', description: "This conversation's task list.", mimeType: 'application/json' },
    async (uri) => json(uri, await listState()),
  );
  server.registerResource(
    'work',
    WORK_URI,
    {
      title: 'Background work',
      description: 'Questions and other work of this conversation.',
      mimeType: 'application/json',
    },
    async (uri) => json(uri, plainEntries(registry)),
  );
  // Reads and subscriptions name one of our resources or are refused with the specification's
  // resource-not-found error (-32002). Thrown as a plain coded error, not an McpError, whose
  // message already starts "MCP error …" and would reach the client with that prefix twice.
  const readers: Record<string, () => Promise<unknown>> = {
    [TASKS_URI]: () => listState(),
    [WORK_URI]: async () => plainEntries(registry),
  };
  const known = (uri: string) => {
    const reader = readers[uri];
    if (!Object.hasOwn(readers, uri) || !reader) {
      throw Object.assign(
        new Error(
          `Resource not found: ${uri.length > 200 ? `${uri.slice(0, 200)}…` : uri}; expected ${Object.keys(readers).join(' or ')}`,
        ),
        {
          code: RESOURCE_NOT_FOUND,
          data: { uri: uri.slice(0, 200) },
        },
      );
    }
    return reader;
  };
  server.server.removeRequestHandler('resources/read');
  server.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    return json(new URL(uri), await known(uri)());
  });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    known(request.params.uri);
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });

  const endQuestions = (reason: string) => {
    stopReason = reason;
    for (const entry of registry.running({ kind: 'ask' })) registry.stop(entry.id);
  };
  return {
    server,
    registry,
    family: options.family,
    listId: list?.id,
    listState: () => listState(),
    work: () => plainEntries(registry),
    listChangedElsewhere: () => changed(TASKS_URI),
    endQuestions,
    async close(reason: string) {
      list?.release?.();
      endQuestions(reason);
      // Let the withdrawn calls send their results before the transport goes.
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
    },
  };
}
