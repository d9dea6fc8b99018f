/**
 * One conversation: the core that makes its features (the task list, the question tool, the
 * messaging, the board app: features/, each a `Feature` of feature.ts) and the resources
 * raider://tasks and raider://work, served by SDK v2 McpServers it makes (`newServer`): one per
 * connection (stdio, a 2025-era HTTP session), or one per request (the 2026 era over HTTP, where
 * the conversation is the list's and outlives its requests). Over stdio there is one conversation;
 * over HTTP one per 2025-era session, each isolated, and one per list for the 2026 era. Features
 * never import each other: what one needs of another is a callback wired here.
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Answerer } from '@raider/ask-tools/v2';
import { TaskRegistry } from '@raider/tasks-registry';
import type { TaskListLimits } from '@raider/todo-tools/v2';
import { BoardAppFeature } from '../features/board-app/board-app-feature.js';
import { MessagesFeature } from '../features/messages/messages.js';
import { DEFAULT_QUESTION_EXPIRY_MS } from '../features/questions/open-questions.js';
import { firstOf } from '../features/questions/questions.js';
import { QuestionsFeature } from '../features/questions/questions-feature.js';
import { TasksFeature } from '../features/tasks/tasks-feature.js';
import type { ListHandle } from '../lists/list-handle.js';
import { type Logger, silent } from '../log.js';
import { createRuntime, type ServerRuntime } from '../runtime.js';
import type { Era, Family, Names } from '../types.js';
import { ToolPipeline } from './call-pipeline.js';
import { openServer } from './conversation-server.js';
import type { Caller, Feature, FeatureServer } from './feature.js';
import { plainEntries, registerResources, TASKS_URI, WORK_URI } from './resources.js';

export type { Era } from '../types.js';

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
  /**
   * The runtime of the server the conversation belongs to (`HttpServer.runtime`,
   * `StdioServer.runtime`): the conversations of one runtime share its desks of open questions
   * and its inboxes' registry. Default: a runtime of the conversation's own, closed with it.
   */
  runtime?: ServerRuntime;
  /** Mount task_claim beside the task tools (the tasks family). */
  claims?: boolean;
  /** Mount the messaging tools on every server and send wake-ups (`--team`; messages.ts). */
  team?: boolean | undefined;
  /** Every server's agent (`--agent`; it beats what a caller names); giving one mounts the messaging tools. */
  agent?: string | undefined;
  /**
   * send_message writes to a name no agent connected to the list as (`--send-to-unseen`); default
   * false: such a send is refused with the names of the list's agents. Either way a send never
   * makes its recipient an agent of the list: only connecting does.
   */
  sendToUnseen?: boolean | undefined;
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
  | 'sendToUnseen'
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
  const team = { team: options.team, agent: options.agent, sendToUnseen: options.sendToUnseen };
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

/** The features of a conversation, each made once and registered on every server it makes. */
interface Features {
  readonly tasks: TasksFeature;
  readonly questions: QuestionsFeature;
  readonly messages: MessagesFeature;
  readonly boardApp: BoardAppFeature;
  /** All of them, in the order a server registers them (the order of tools/list). */
  readonly all: readonly Feature[];
}

/** The pieces of a conversation its servers are made of. */
interface Parts {
  readonly options: ConversationOptions;
  readonly id: string;
  readonly features: Features;
  readonly registry: TaskRegistry;
  /** The servers open now, each told of changes. */
  readonly servers: Map<McpServer, (uri: string) => void>;
}

/**
 * The agent a server for `caller` serves: `--agent`, else the one the caller names, else the
 * conversation's own id when messaging is on (`--team`); undefined when the messaging tools are
 * not mounted on it.
 */
function agentOf(options: ConversationOptions, id: string, caller: Caller | undefined): string | undefined {
  if (options.team !== true && options.agent === undefined && caller?.agent === undefined) return undefined;
  return options.agent ?? caller?.agent ?? id;
}

/** Conversation.newServer: a fresh server with the conversation's tools and resources. */
function newServer(parts: Parts, era: Era, request?: { clientCapabilities?: unknown }, caller?: Caller): McpServer {
  const { options, features, servers } = parts;
  const mcp = openServer(options);
  const agent = agentOf(options, parts.id, caller);
  // Every call of every tool of this server passes the pipeline's steps (call-pipeline.ts).
  const tools = new ToolPipeline(mcp, {
    era,
    names: options.names,
    agent,
    // Read at each call: a list that follows Claude Code's session may move to its team's folder.
    get listId() {
      return options.list?.id;
    },
    answers: caller?.answers,
    progressEveryMs: options.progressEveryMs,
    deadline: deadlineOf(options),
  });
  const resources = registerResources(mcp, era, features.tasks.listState, parts.registry);
  const server: FeatureServer = { mcp, era, request, caller, agent, tools, resources };
  for (const feature of features.all) feature.register(server);
  servers.set(mcp, (uri) => resources.notify(uri));
  mcp.server.onclose = () => {
    servers.delete(mcp);
  };
  return mcp;
}

/** How the waiting calls of a conversation choose their deadline (`--wait-deadline`, the transport): one place for all three. */
const deadlineOf = (options: ConversationOptions) =>
  ({ fixedMs: options.waitDeadlineMs, transport: options.transport ?? 'stdio' }) as const;

/**
 * The features of a conversation, wired: the messaging observes the task list (wake-ups) and
 * hears of questions answered while their agent was away; the board app reads and sets the list
 * and answers questions beside the web board.
 */
function makeFeatures(
  options: ConversationOptions,
  parts: { id: string; registry: TaskRegistry; runtime: ServerRuntime },
  changed: (uri: string) => void,
  log: Logger,
): Features {
  const { id, registry, runtime } = parts;
  const messages = new MessagesFeature({
    names: options.names,
    team: options.team === true,
    agent: options.agent,
    conversationId: id,
    list: options.list,
    namedAgents: options.namedAgents === true,
    sendToUnseen: options.sendToUnseen === true,
    changed,
    inboxes: runtime.inboxes,
    log,
  });
  const tasks = new TasksFeature({
    family: options.family,
    list: messages.observe(options.list),
    limits: options.limits ?? {},
    changed: () => changed(TASKS_URI),
    tools: {
      claims: options.claims === true,
      structuredOutput: options.structuredOutput === true,
      alwaysLoad: options.alwaysLoad === true,
    },
    log,
  });
  const boardApp = new BoardAppFeature(
    {
      family: options.family,
      listState: tasks.listState,
      setStatus: tasks.setStatus,
    },
    options.boardApp !== false,
    log,
  );
  const appAnswerer = boardApp.answerer();
  const questions = new QuestionsFeature(registry, {
    names: options.names,
    askTimeoutMs: options.askTimeoutMs,
    structuredOutput: options.structuredOutput === true,
    stateSecret: options.stateSecret,
    // The web board and the board app: where both are open, the first answer wins.
    fallbackAnswerer: () => firstOf(options.fallbackAnswerer?.(), appAnswerer()),
    listId: options.list?.id,
    desks: runtime.desks,
    codecs: runtime.stateCodecs,
    expiryMs: options.questionExpiryMs ?? DEFAULT_QUESTION_EXPIRY_MS,
    progressEveryMs: options.progressEveryMs,
    answeredWhileAway: (question) =>
      messages.tellAnswered({
        id: question.id,
        question: question.question,
        agent: question.opener.agent,
        answeredBy: question.answeredBy,
      }),
    log,
  });
  return { tasks, questions, messages, boardApp, all: [tasks, questions, messages, boardApp] };
}

/** Builds a conversation. */
export function createConversation(options: ConversationOptions): Conversation {
  const log = options.log ?? silent;
  const registry = new TaskRegistry();
  const servers = new Map<McpServer, (uri: string) => void>();
  const listeners = new Set<(uri: string) => void>();
  const changed = (uri: string) => {
    for (const notify of servers.values()) notify(uri);
    for (const listener of listeners) listener(uri);
    features.boardApp.changed();
    options.onChange?.();
  };
  const list = options.list;
  const id = options.id ?? randomUUID();
  const runtime = options.runtime ?? createRuntime();
  const features = makeFeatures(options, { id, registry, runtime }, changed, log);
  registry.on('added', () => changed(WORK_URI));
  registry.on('finished', () => changed(WORK_URI));
  const parts: Parts = { options, id, features, registry, servers };
  return {
    registry,
    family: options.family,
    listId: list?.id,
    id,
    newServer: (era, request, caller) => newServer(parts, era, request, caller),
    onChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listState: features.tasks.listState,
    work: () => plainEntries(registry),
    endQuestions: features.questions.endQuestions,
    hasOpenQuestions: () => features.questions.hasOpenQuestions(),
    async close(reason: string) {
      for (const feature of features.all) feature.close(reason);
      list?.release();
      // Let the withdrawn calls send their results before the transports go.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([...servers.keys()].map((server) => server.close().catch(() => {})));
      servers.clear();
      // A runtime of its own ends with it; a server's runtime ends with the server.
      if (options.runtime === undefined) await runtime.close();
    },
  };
}
