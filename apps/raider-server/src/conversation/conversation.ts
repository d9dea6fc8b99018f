/**
 * One conversation: an McpServer with one task-list family, the question tool, the registry of
 * open questions, and the resources raider://tasks and raider://work. Over stdio there is one;
 * over HTTP one per MCP session, each isolated. Its parts: families.ts, questions.ts,
 * resources.ts, claude-names.ts.
 */
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Answerer } from '@raider/ask-tools';
import { TaskRegistry } from '@raider/tasks-registry';
import type { TodoLimits } from '@raider/todo-tools';
import { BOARD_APP_URI, BoardApp, rendersApps } from '../board/board-app.js';
import type { ListHandle } from '../lists/list-handle.js';
import { type Logger, silent } from '../log.js';
import type { Family, Names } from '../types.js';
import { VERSION } from '../version.js';
import { underClaudeNames } from './claude-names.js';
import { mountFamily } from './families.js';
import { instructions } from './instructions.js';
import { withProgress } from './progress.js';
import { firstOf, mountQuestions } from './questions.js';
import { plainEntries, registerResources, TASKS_URI, WORK_URI } from './resources.js';

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
  /** Mount task_claim beside the task tools (the tasks family). */
  claims?: boolean;
  /** Offer the board as an MCP App to a client that renders them (default true). */
  boardApp?: boolean;
  /** Results carry structuredContent and the tools declare output schemas (default false). */
  structuredOutput?: boolean;
  /** The tools carry `_meta["anthropic/alwaysLoad"]` (default false). */
  alwaysLoad?: boolean;
  /** How often a call still running sends progress, in ms (default PROGRESS_EVERY_MS, 15 s). */
  progressEveryMs?: number;
  /** Called after every change of the list or of the registry (a live board redraws). */
  onChange?: () => void;
  /**
   * A second way to reach a person (the live board), asked after the client's elicitation: when
   * both can ask, the question goes to both and the first outcome wins; the other is withdrawn.
   */
  fallbackAnswerer?: Answerer;
}

/** The settings of a conversation that a server takes from its options (its own options satisfy it). */
export type ConversationSettings = Pick<
  ConversationOptions,
  'family' | 'names' | 'askTimeoutMs' | 'limits' | 'claims' | 'boardApp' | 'structuredOutput' | 'alwaysLoad'
>;

/** The conversation settings among `options` (a server's options), and only those. */
export function settingsOf(options: ConversationSettings): ConversationSettings {
  const { family, names, askTimeoutMs, limits, claims, boardApp, structuredOutput, alwaysLoad } = options;
  return { family, names, askTimeoutMs, limits, claims, boardApp, structuredOutput, alwaysLoad };
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
  /** Ends every open question with `reason` (each tool call answers that it was withdrawn). */
  endQuestions(reason: string): void;
  /** Ends open questions, releases the list and closes the server. */
  close(reason: string): Promise<void>;
}

/** Builds a conversation. */
export function createConversation(options: ConversationOptions): Conversation {
  const log = options.log ?? silent;
  const server = new McpServer(
    { name: 'raider-server', version: VERSION },
    {
      capabilities: { resources: { subscribe: true, listChanged: true } },
      instructions: instructions(options.family, options.names),
      // Offering the board app registers three tools and a resource and links the list tools, each
      // of which the SDK announces: a client that renders apps got four or five tools/list_changed
      // before it had listed anything. Those sent in one tick go out as one.
      debouncedNotificationMethods: ['notifications/tools/list_changed', 'notifications/resources/list_changed'],
    },
  );
  const registry = new TaskRegistry();
  let notify: (uri: string) => void = () => {};
  const changed = (uri: string) => {
    notify(uri);
    options.onChange?.();
  };
  const list = options.list;
  const named = options.names === 'claude' ? underClaudeNames(server) : server;
  // The list tools, kept to link them to the board app when the client renders apps.
  const listTools: RegisteredTool[] = [];
  const mount = {
    registerTool: ((name: string, config: never, handler: (...args: unknown[]) => unknown) => {
      // A call still running after a while (a lock another process holds, a slow hook) sends progress.
      const tool = named.registerTool(name, config, withProgress(handler, options.progressEveryMs) as never);
      if (name === 'task_list' || name === 'todo') listTools.push(tool);
      return tool;
    }) as McpServer['registerTool'],
  } as McpServer;
  const family = mountFamily(mount, options.family, list, options.limits ?? {}, () => changed(TASKS_URI), log, {
    claims: options.claims === true,
    structuredOutput: options.structuredOutput === true,
    alwaysLoad: options.alwaysLoad === true,
  });
  const listState = family.listState;
  const app = new BoardApp({ family: options.family, listState, setStatus: family.setStatus });
  const appAnswerer = app.answerer();
  const endQuestions = mountQuestions(server, registry, {
    names: options.names,
    askTimeoutMs: options.askTimeoutMs,
    structuredOutput: options.structuredOutput === true,
    // The web board and the board app: where both are open, the first answer wins.
    fallbackAnswerer: () => firstOf(options.fallbackAnswerer?.(), appAnswerer()),
    log,
  });
  registry.on('added', () => changed(WORK_URI));
  registry.on('finished', () => changed(WORK_URI));
  const resources = registerResources(server, listState, registry);
  notify = (uri) => {
    resources.notify(uri);
    app.changed();
  };
  // The board app, offered only to a client that announces MCP Apps (the others see today's tools,
  // and pay nothing for it: its tools are registered only then).
  server.server.oninitialized = () => {
    if (options.boardApp === false || !rendersApps(server.server.getClientCapabilities())) return;
    app.offer(server, listTools);
    resources.addReader(BOARD_APP_URI, async () => app.read());
    log.debug('the client renders MCP Apps: the board app is offered');
  };
  return {
    server,
    registry,
    family: options.family,
    listId: list?.id,
    listState,
    work: () => plainEntries(registry),
    endQuestions,
    async close(reason: string) {
      family.stop();
      list?.release();
      endQuestions(reason);
      // Let the withdrawn calls send their results before the transport goes.
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
    },
  };
}
