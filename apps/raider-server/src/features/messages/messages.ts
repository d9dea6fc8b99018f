/**
 * Agents that talk (issue 27): the messaging of one conversation. Who each of its servers' agent is,
 * the tools send_message and wait_for_messages (SendMessage and WaitForMessages under Claude
 * names), the resource raider://messages, and the wake-ups its task list sends (wake-ups.ts).
 *
 * Messages live in the list's message store (memory, the list folder, PostgreSQL; a conversation
 * without a list keeps its own in memory). A take reserves what it takes for DELIVERY_LEASE_MS;
 * the messages are removed (`done`) only once the answer carrying them was handed to the transport
 * (answer-watch.ts), and given back (`release`) when it could not be or the call was cancelled.
 */
import { oneLine } from '@raider/kit/shown-text';
import { type MessageStore, memoryMessageStore, notificationText, type StoredMessage } from '@raider/tasks-registry';
import type { ToolCallResult } from '@raider/todo-tools/v2';
import type { ConversationInboxes, InboxRegistry } from '../../board/conversation-inboxes.js';
import type { CallContext, ToolPipeline } from '../../conversation/call-pipeline.js';
import type { Feature, FeatureServer } from '../../conversation/feature.js';
import { type ListHandle, withTaskStore } from '../../lists/list-handle.js';
import type { Logger } from '../../log.js';
import type { Names } from '../../types.js';
import { sendMessage } from './message-send.js';
import { answeredSummary } from './message-texts.js';
import { mountMessageTools, refusal, sendProblem, toolNames } from './message-tools.js';
import { waitForMessages } from './message-wait.js';
import { Roster } from './roster.js';
import { observeTasks } from './wake-ups.js';

export { sendFailure } from './message-send.js';
export { MAX_WAIT_SECONDS } from './message-tools.js';
export { DELIVERY_LEASE_MS } from './message-wait.js';

/** The resource with what waits for the agent. */
export const MESSAGES_URI = 'raider://messages';

/** The most agents one conversation watches for raider://messages (the 2026 era serves many per list). */
const MAX_WATCHED_AGENTS = 1_000;

/** What a conversation's messaging is made of. */
export interface MessagingOptions {
  names: Names;
  /** `--team`: the tools are mounted on every server. */
  team: boolean;
  /** `--agent`: every server's agent (the tools are mounted). */
  agent: string | undefined;
  /** The conversation's own id: the agent of a server that names none. */
  conversationId: string;
  list: ListHandle | undefined;
  /** Servers may be made for agents their callers name (HTTP): watch the task list for wake-ups from the start. */
  namedAgents: boolean;
  /** `--send-to-unseen`: send_message writes to names no agent connected as (they still are no agents). */
  sendToUnseen: boolean;
  /** Tells the conversation's subscribers that `uri` changed. */
  changed: (uri: string) => void;
  /** The server's registry of open conversations' inboxes (the board reads them there). */
  inboxes: InboxRegistry;
  log: Logger;
}

/** A question answered while the agent that asked it waited on nothing (the questions feature tells of it). */
export interface AnsweredQuestion {
  /** Its id, `ask_3`. */
  readonly id: string;
  readonly question: string;
  /** The agent that asked it, if it named one. */
  readonly agent: string | undefined;
  /** Who answered it, when a board token named the person. */
  readonly answeredBy?: string | undefined;
}

/**
 * The messaging of one conversation, a feature of it: its agents, their inboxes on the list,
 * send_message, wait_for_messages and raider://messages on each server whose agent is named, and
 * the wake-ups its task list sends.
 */
export class MessagesFeature implements Feature {
  readonly name = 'messages';
  /** A conversation without a list keeps its own inboxes (a lone agent still has one). */
  private readonly own: MessageStore | undefined;
  private readonly roster: Roster;
  /** The agents this conversation serves, each watched for raider://messages, and the stop of its watch. */
  private readonly watched = new Map<string, () => void>();
  /** Told after a take here took messages (the board redraws the inbox: a store's watch does not tell of takes). */
  private readonly takenListeners = new Set<(agent: string) => void>();
  private serving: boolean;
  private readonly unregister: () => void;

  constructor(private readonly options: MessagingOptions) {
    this.own = options.list ? undefined : memoryMessageStore();
    this.roster = new Roster(this.store, options.log);
    this.serving = options.team || options.agent !== undefined;
    this.unregister = options.inboxes.register(options.conversationId, this.inboxes());
  }

  /** The list's inboxes, or the conversation's own. */
  readonly store = (): MessageStore => this.options.list?.messages() ?? (this.own as MessageStore);

  /** Notes `agent` as served here (it connected as itself): on the list's roster, its inbox watched for raider://messages. */
  private serve(agent: string): void {
    this.serving = true;
    void this.roster.note(agent);
    if (this.watched.has(agent) || this.watched.size >= MAX_WATCHED_AGENTS) return;
    try {
      this.watched.set(
        agent,
        this.store().watch(agent, () => this.options.changed(MESSAGES_URI)),
      );
    } catch (error) {
      this.options.log.debug(`could not watch the inbox of ${agent}: ${(error as Error).message}`);
    }
  }

  /**
   * Every agent of the list: on its roster (connected to it, through any server, in the last week)
   * or served here. A task's owner that never connected is none. Rejects when the roster cannot be read.
   */
  private readonly agentsOfList = async (): Promise<string[]> => [
    ...new Set([...(await this.roster.agents()), ...this.watched.keys()]),
  ];

  private send(from: string, args: Record<string, unknown>): Promise<ToolCallResult> {
    const inbox = { store: this.store, agents: this.agentsOfList, sendToUnseen: this.options.sendToUnseen };
    return sendMessage(inbox, from, args);
  }

  private wait(agent: string, args: Record<string, unknown>, call: CallContext) {
    const inbox = {
      store: this.store,
      log: this.options.log,
      taken: (taker: string) => {
        for (const listener of this.takenListeners) listener(taker);
      },
    };
    return waitForMessages(inbox, agent, args, call);
  }

  /** The conversation's inboxes as the board reads them (board/conversation-inboxes.ts). */
  private inboxes(): ConversationInboxes {
    return {
      store: this.store,
      // A roster that cannot be read leaves the board the agents served here.
      agents: () => this.agentsOfList().catch(() => [...this.watched.keys()]),
      served: () => [...this.watched.keys()],
      send: async (from, args) => {
        const problem = sendProblem(args ?? {}, toolNames('raider').sendArgs);
        return problem ? refusal(problem) : this.send(from, args);
      },
      onTaken: (listener) => {
        // Wrapped: one function given twice is two subscriptions, each stopped on its own.
        const entry = (agent: string) => listener(agent);
        this.takenListeners.add(entry);
        return () => this.takenListeners.delete(entry);
      },
    };
  }

  /**
   * `list` for the task-list feature to be mounted on: when a team may use it, its task store is
   * observed (wake-ups.ts), and a change made through it answers once its wake-ups are in their
   * inboxes. The conversation hands the task-list feature this list: the two features never meet.
   */
  observe(list: ListHandle | undefined): ListHandle | undefined {
    if (!list || !(this.serving || this.options.namedAgents)) return list;
    const tasks = observeTasks(list.tasks(), {
      messages: this.store,
      enabled: () => this.serving,
      log: this.options.log,
    });
    return withTaskStore(list, tasks);
  }

  /** Tells the agent that asked `question` (when one is named and messaging is on) that it was answered. */
  tellAnswered(question: AnsweredQuestion): void {
    if (question.agent === undefined || !this.serving) return;
    this.store()
      .send({
        to: question.agent,
        text: notificationText({ taskId: question.id, status: 'completed', summary: answeredSummary(question) }),
        notification: true,
        about: question.id,
        label: answeredSummary(question),
      })
      .catch((error: unknown) => {
        this.options.log.warn(
          `the answer of ${question.id} could not be announced to ${question.agent}: ${(error as Error).message}`,
        );
      });
  }

  /** Mounts send_message, wait_for_messages and raider://messages for the server's agent, when it has one. */
  register(server: FeatureServer): void {
    const { agent, resources } = server;
    if (agent === undefined) return;
    this.mountFor(server.mcp, server.tools, agent);
    resources.addReader(MESSAGES_URI, () => this.read(agent));
  }

  /** The tools (through the server's pipeline, `tools`) and raider://messages for `agent` on `server`. */
  private mountFor(server: FeatureServer['mcp'], tools: ToolPipeline, agent: string): void {
    this.serve(agent);
    // An agent's own calls make sure it is on the roster first: once one answered, every server
    // on the list finds it there (its connection's note may still be on its way).
    mountMessageTools(tools, agent, this.options, {
      send: async (args) => {
        await this.roster.note(agent);
        return this.send(agent, args);
      },
      wait: async (args, call) => {
        await this.roster.note(agent);
        return this.wait(agent, args, call);
      },
    });
    server.registerResource(
      'messages',
      MESSAGES_URI,
      {
        title: 'Messages',
        description: `What waits for "${oneLine(agent)}" in its inbox on this list (messages and notifications not taken yet).`,
        mimeType: 'application/json',
      },
      () => this.read(agent),
    );
  }

  /** raider://messages for `agent`: what waits in its inbox, peeked. */
  private async read(agent: string) {
    const waiting: StoredMessage[] = await this.store().peek(agent);
    return {
      contents: [
        {
          uri: MESSAGES_URI,
          mimeType: 'application/json',
          text: JSON.stringify({ agent, messages: waiting }, null, 2),
        },
      ],
    };
  }

  /** Stops the watches (the conversation ends). */
  close(): void {
    for (const stop of this.watched.values()) stop();
    this.watched.clear();
    this.takenListeners.clear();
    this.unregister();
  }
}
