/**
 * One conversation: one task-list family, the question tool, the registry of open questions, and
 * the resources raider://tasks and raider://work, served by SDK v2 McpServers it makes
 * (`newServer`): one per connection (stdio, a 2025-era HTTP session), or one per request (the
 * 2026 era over HTTP, where the conversation is the list's and outlives its requests). Over stdio
 * there is one conversation; over HTTP one per 2025-era session, each isolated, and one per list
 * for the 2026 era. Its parts: families.ts, questions.ts, resources.ts, claude-names.ts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { McpServer, type RegisteredTool, type ServerContext } from '@modelcontextprotocol/server';
import type { Answerer } from '@raider/ask-tools/v2';
import { TaskRegistry } from '@raider/tasks-registry';
import type { TaskListLimits, ToolCallResult, ToolConfig, ToolContext, ToolRegistrar } from '@raider/todo-tools/v2';
import { BOARD_APP_URI, BoardApp, offerOnAnnouncement, rendersApps } from '../board/board-app.js';
import type { ListHandle } from '../lists/list-handle.js';
import { type Logger, silent } from '../log.js';
import type { Family, Names } from '../types.js';
import { VERSION } from '../version.js';
import { underClaudeNames } from './claude-names.js';
import { mountFamily } from './families.js';
import { instructions } from './instructions.js';
import { type Caller, createMessaging, ownersIn } from './messages.js';
import { DEFAULT_QUESTION_EXPIRY_MS } from './open-questions.js';
import { withProgress } from './progress.js';
import { askingAgent, createQuestions, firstOf } from './questions.js';
import { plainEntries, registerResources, TASKS_URI, WORK_URI } from './resources.js';
import { callClient, waitDeadlineMs } from './wait-deadline.js';

/** What a conversation is made of. */
export interface ConversationOptions {
  family: Family;
  names: Names;
  /** How long a question may wait for its answer, in ms. */
  askTimeoutMs: number;
  /** List limits; any left out take the defaults of DEFAULT_LIMITS. */
  limits?: Partial<TaskListLimits>;
  log?: Logger;
  /** The list the conversation works on when it is shared or durable; without it the list lives in the conversation. */
  list?: ListHandle;
  /** Mount task_claim beside the task tools (the tasks family). */
  claims?: boolean;
  /** Mount the messaging tools on every server and send wake-ups (`--team`; messages.ts). */
  team?: boolean | undefined;
  /** Every server's agent (`--agent`; it beats what a caller names); giving one mounts the messaging tools. */
  agent?: string | undefined;
  /** Servers may be made for agents their callers name (X-Raider-Agent): wake-ups are watched from the start. */
  namedAgents?: boolean;
  /** The conversation's own id, the agent of a server that names none (default: a random UUID). */
  id?: string;
  /** Offer the board as an MCP App to a client that renders them (default true). */
  boardApp?: boolean;
  /** Results carry structuredContent and the tools declare output schemas (default false). */
  structuredOutput?: boolean;
  /** The tools carry `_meta["anthropic/alwaysLoad"]` (default false). */
  alwaysLoad?: boolean;
  /** The key that signs a 2026-era question's state (`--state-secret`; replicas share it); default: one made per process. */
  stateSecret?: string | undefined;
  /** How often a call still running sends progress, in ms (default PROGRESS_EVERY_MS, 15 s). */
  progressEveryMs?: number;
  /** A waiting call's deadline for every client, in ms (`--wait-deadline`); default: chosen per client. */
  waitDeadlineMs?: number | undefined;
  /** How the conversation's servers are reached (a client's deadline depends on it); default stdio. */
  transport?: 'stdio' | 'http';
  /** How long a question nobody answered stays open, in ms (default 1 h). */
  questionExpiryMs?: number;
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
  | 'family'
  | 'names'
  | 'askTimeoutMs'
  | 'limits'
  | 'claims'
  | 'team'
  | 'agent'
  | 'boardApp'
  | 'structuredOutput'
  | 'alwaysLoad'
  | 'stateSecret'
  | 'waitDeadlineMs'
  | 'progressEveryMs'
  | 'questionExpiryMs'
>;

/** The conversation settings among `options` (a server's options), and only those. */
export function settingsOf(options: ConversationSettings): ConversationSettings {
  const { family, names, askTimeoutMs, limits, claims, boardApp, structuredOutput, alwaysLoad, stateSecret } = options;
  const team = { team: options.team, agent: options.agent };
  const waits = {
    waitDeadlineMs: options.waitDeadlineMs,
    ...(options.progressEveryMs === undefined ? {} : { progressEveryMs: options.progressEveryMs }),
    ...(options.questionExpiryMs === undefined ? {} : { questionExpiryMs: options.questionExpiryMs }),
  };
  return {
    ...{ family, names, askTimeoutMs, limits, claims, boardApp, structuredOutput, alwaysLoad, stateSecret },
    ...team,
    ...waits,
  };
}

/** The era a server serves: 2025 (`initialize`, sessions) or 2026-07-28 (per request). */
export type Era = 'legacy' | 'modern';

/** A running conversation. */
export interface Conversation {
  readonly registry: TaskRegistry;
  readonly family: Family;
  /** The id of the shared or durable list, if the conversation works on one. */
  readonly listId: string | undefined;
  /** The conversation's own id (the agent of a server whose caller names none, with messaging on). */
  readonly id: string;
  /**
   * A fresh v2 McpServer with the conversation's tools and resources, for one connection or one
   * request of `era` (a factory for `serveStdio` and `createMcpHandler`). A change of the list
   * reaches every server made here that is still open. `request`: the 2026-era request a server
   * is made for (over HTTP), with the client capabilities its envelope declares; without it a
   * 2026-era server (pinned to a connection: stdio) takes them from its first requests.
   * `caller`: the agent the connection or request names, and word of its written answers.
   */
  newServer(era: Era, request?: { clientCapabilities?: unknown }, caller?: Caller): McpServer;
  /** Called after every change of the list or of the registry, besides the servers' own notifications. */
  onChanged(listener: (uri: string) => void): () => void;
  /** The task list as raider://tasks shows it. */
  listState(): Promise<unknown>;
  /** The registry's entries as plain data (raider://work). */
  work(): unknown[];
  /** Ends every open question with `reason` (each tool call answers that it was withdrawn). */
  endQuestions(reason: string): void;
  /** True while a question this conversation asked is still open: its session or list is kept for the resume. */
  hasOpenQuestions(): boolean;
  /** Ends open questions, releases the list and closes its servers. */
  close(reason: string): Promise<void>;
}

/** Builds a conversation. */
export function createConversation(options: ConversationOptions): Conversation {
  const log = options.log ?? silent;
  const registry = new TaskRegistry();
  /** The servers open now, each told of changes. */
  const servers = new Map<McpServer, (uri: string) => void>();
  const listeners = new Set<(uri: string) => void>();
  const changed = (uri: string) => {
    for (const notify of servers.values()) notify(uri);
    for (const listener of listeners) listener(uri);
    app.changed();
    options.onChange?.();
  };
  const list = options.list;
  const id = options.id ?? randomUUID();
  const messaging = createMessaging({
    names: options.names,
    team: options.team === true,
    agent: options.agent,
    conversationId: id,
    list,
    namedAgents: options.namedAgents === true,
    owners: async () => ownersIn(await family.listState()),
    changed: (uri) => changed(uri),
    progressEveryMs: options.progressEveryMs,
    deadline: { fixedMs: options.waitDeadlineMs, transport: options.transport ?? 'stdio' },
    log,
  });
  const observed = messaging.observe(list);
  const family = mountFamily(options.family, observed, options.limits ?? {}, () => changed(TASKS_URI), log, {
    claims: options.claims === true,
    structuredOutput: options.structuredOutput === true,
    alwaysLoad: options.alwaysLoad === true,
  });
  const listState = family.listState;
  const deadline = { fixedMs: options.waitDeadlineMs, transport: options.transport ?? 'stdio' } as const;
  const app = new BoardApp({
    family: options.family,
    listState,
    setStatus: family.setStatus,
    deadlineMs: (ctx, server) => waitDeadlineMs(deadline, callClient(ctx, server.server)),
  });
  const appAnswerer = app.answerer();
  const questions = createQuestions(registry, {
    names: options.names,
    askTimeoutMs: options.askTimeoutMs,
    structuredOutput: options.structuredOutput === true,
    stateSecret: options.stateSecret,
    // The web board and the board app: where both are open, the first answer wins.
    fallbackAnswerer: () => firstOf(options.fallbackAnswerer?.(), appAnswerer()),
    deadline,
    listId: list?.id,
    expiryMs: options.questionExpiryMs ?? DEFAULT_QUESTION_EXPIRY_MS,
    progressEveryMs: options.progressEveryMs,
    answeredWhileAway: (question) => messaging.tellAnswered(question),
    log,
  });
  registry.on('added', () => changed(WORK_URI));
  registry.on('finished', () => changed(WORK_URI));

  /** newServer's: the question tool as a 2026-era server registers it, recorded by the first such server. */
  let modernQuestionTool:
    | {
        tools: [string, object, (args: unknown, ctx: ServerContext) => unknown][];
        servedBy: AsyncLocalStorage<McpServer>;
      }
    | undefined;
  const newServer = (era: Era, request?: { clientCapabilities?: unknown }, caller?: Caller): McpServer => {
    const server = new McpServer(
      { name: 'raider-server', version: VERSION },
      {
        capabilities: { resources: { subscribe: true, listChanged: true } },
        instructions: instructions(options.family, options.names),
        // Offering the board app registers three tools and a resource and links the list tools, each
        // of which the SDK announces: a client that renders apps got four or five tools/list_changed
        // before it had listed anything. Those sent in one tick go out as one.
        debouncedNotificationMethods: ['notifications/tools/list_changed', 'notifications/resources/list_changed'],
        // The SDK's shim asks a 2025-era client for an input_required round as long as a question may wait.
        inputRequired: { roundTimeoutMs: options.askTimeoutMs },
      },
    );
    // The list tools, kept to link them to the board app when the client renders apps.
    const listTools: RegisteredTool[] = [];
    const base: ToolRegistrar = {
      registerTool: (
        name: string,
        config: ToolConfig,
        handler: (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolCallResult>,
      ) => {
        // A call still running after a while (a lock another process holds, a slow hook) sends progress.
        const tool = server.registerTool(
          name,
          config,
          withProgress(
            (args: unknown, ctx: ServerContext) => handler(args as Record<string, unknown>, ctx),
            options.progressEveryMs,
          ),
        );
        if (name === 'task_list' || name === 'todo' || name === 'TaskList') listTools.push(tool);
        return tool;
      },
    };
    family.register(messaging.registrar(options.names === 'claude' ? underClaudeNames(base) : base, caller));
    const asking = messaging.agentFor(caller);
    if (era === 'legacy') questions.register(server, era, asking);
    else {
      // A 2026-era server is made per request over HTTP, and mounting the question tool was most
      // of its making (AskTools turns the tool's input schema into JSON Schema at every mount). What
      // it registers is the same for every 2026-era server (its answerer reads the call's envelope),
      // so it is recorded once and registered on each. The one thing it reads of its server, the
      // client's capabilities (when the envelope has none), it reads of the server serving the call.
      if (!modernQuestionTool) {
        const recorded: [string, object, (args: unknown, ctx: ServerContext) => unknown][] = [];
        const servedBy = new AsyncLocalStorage<McpServer>();
        const recorder = {
          server: {
            getClientCapabilities: () => servedBy.getStore()?.server.getClientCapabilities(),
            getClientVersion: () => servedBy.getStore()?.server.getClientVersion(),
          },
          registerTool: (name: string, config: object, handler: (args: unknown, ctx: ServerContext) => unknown) => {
            recorded.push([name, config, handler]);
          },
        };
        questions.register(recorder as unknown as McpServer, 'modern');
        modernQuestionTool = { tools: recorded, servedBy };
      }
      const { tools, servedBy } = modernQuestionTool;
      for (const [name, config, handler] of tools) {
        server.registerTool(
          name,
          config as never,
          ((args: unknown, ctx: ServerContext) =>
            servedBy.run(server, () => askingAgent.run(asking, () => handler(args, ctx)))) as never,
        );
      }
    }
    const resources = registerResources(server, era, listState, registry);
    messaging.mount(server, caller, resources);
    servers.set(server, (uri) => resources.notify(uri));
    server.server.onclose = () => {
      servers.delete(server);
    };
    // The board app, offered only to a client that announces MCP Apps (the others see today's
    // tools, and pay nothing for it: its tools are registered only then). 2025 era: at
    // initialize. 2026 era: in a request's envelope; a server made for one request knows at once,
    // one pinned to a connection offers it from the first request that announces it.
    const offerApp = () => {
      app.offer(server, listTools);
      resources.addReader(BOARD_APP_URI, async () => app.read());
      log.debug('the client renders MCP Apps: the board app is offered');
    };
    if (options.boardApp !== false) {
      if (era === 'legacy') {
        server.server.oninitialized = () => {
          if (rendersApps(server.server.getClientCapabilities())) offerApp();
        };
      } else if (request === undefined) offerOnAnnouncement(server, offerApp);
      else if (rendersApps(request.clientCapabilities)) offerApp();
    }
    return server;
  };

  return {
    registry,
    family: options.family,
    listId: list?.id,
    id,
    newServer,
    onChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listState,
    work: () => plainEntries(registry),
    endQuestions: questions.endQuestions,
    hasOpenQuestions: () => questions.openQuestions() > 0,
    async close(reason: string) {
      family.stop();
      messaging.close();
      list?.release();
      questions.endQuestions(reason);
      // Let the withdrawn calls send their results before the transports go.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([...servers.keys()].map((server) => server.close().catch(() => {})));
      servers.clear();
    },
  };
}
