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
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { received } from '@raider/kit/received';
import {
  type MessageDelivery,
  MessageLimitError,
  type MessageStore,
  memoryMessageStore,
  notificationText,
  type StoredMessage,
} from '@raider/tasks-registry';
import type { ToolCallResult, ToolRegistrar } from '@raider/todo-tools/v2';
import { type ConversationInboxes, registerInboxes } from '../board/conversation-inboxes.js';
import type { ListHandle } from '../lists/list-handle.js';
import type { Logger } from '../log.js';
import type { Names } from '../types.js';
import { agentNameProblem, EVERYONE } from './agent-name.js';
import type { AnswerWatch } from './answer-watch.js';
import { answeredSummary, deliveryText, NO_MESSAGES_YET, sentTo, sentToAgents } from './message-texts.js';
import type { OpenQuestion } from './open-questions.js';
import { withProgress } from './progress.js';
import { Roster } from './roster.js';
import { callClient, type WaitDeadlineSettings, waitDeadlineMs } from './wait-deadline.js';
import { callingAgent, type ObservedTasks, observeTasks } from './wake-ups.js';

/** The resource with what waits for the agent. */
export const MESSAGES_URI = 'raider://messages';

/** The longest wait_for_messages waits, and its default, in seconds (under Claude Code's 120 s auto-background). */
export const MAX_WAIT_SECONDS = 50;

/** How long a take reserves what it takes: time enough to hand the answer on. */
export const DELIVERY_LEASE_MS = 30_000;

/** How often a waiting wait_for_messages looks again when no watch woke it (a watch can miss). */
const LOOK_AGAIN_MS = 5_000;

/**
 * How long after a failed `done` or `release` it is tried again, while the take's lease holds. A
 * store down for a moment (a database restarting) must not leave the messages of an answer
 * already written reserved: once the lease lapsed they would be taken again, a duplicate.
 */
const SETTLE_RETRY_MS = 1_000;

/** The most agents one conversation watches for raider://messages (the 2026 era serves many per list). */
const MAX_WATCHED_AGENTS = 1_000;

/** Who a server serves and how it learns that an answer was written (per connection or request). */
export interface Caller {
  /** The agent a request or session names (X-Raider-Agent); `--agent` beats it. */
  agent?: string | undefined;
  /** Word of written answers: done only then. Without it (embedded use) a delivery is done as its answer is returned. */
  answers?: AnswerWatch | undefined;
}

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
  /** The owners of the list's tasks (agents of the list). */
  owners: () => Promise<string[]>;
  /** Tells the conversation's subscribers that `uri` changed. */
  changed: (uri: string) => void;
  progressEveryMs?: number | undefined;
  /** How a waiting call's deadline is chosen (`--wait-deadline`, the transport). */
  deadline: WaitDeadlineSettings;
  log: Logger;
}

/** The messaging of one conversation. */
export interface Messaging {
  /** `list` for the family to be mounted on, its task store observed for wake-ups when a team may use it. */
  observe(list: ListHandle | undefined): ListHandle | undefined;
  /** The agent a server for `caller` serves, or undefined when the messaging tools are not mounted on it. */
  agentFor(caller: Caller | undefined): string | undefined;
  /** `registrar` with each call of the family's tools run as `agent`, answering once its wake-ups were sent. */
  registrar(registrar: ToolRegistrar, caller: Caller | undefined): ToolRegistrar;
  /** Mounts send_message, wait_for_messages and raider://messages for the caller's agent on `server`. */
  mount(server: McpServer, caller: Caller | undefined, resources: ResourceHooks): void;
  /** Tells the agent that asked `question` (when one is named and messaging is on) that it was answered. */
  tellAnswered(question: OpenQuestion): void;
  /** Stops the watches (the conversation ends). */
  close(): void;
}

/** What `registerResources` hands back: a reader for a new URI. */
export interface ResourceHooks {
  addReader(uri: string, read: () => Promise<{ contents: { uri: string; mimeType: string; text: string }[] }>): void;
}

const text = (answer: string, isError = false): ToolCallResult =>
  ({ content: [{ type: 'text', text: answer }], ...(isError ? { isError: true } : {}) }) as ToolCallResult;
const refusal = (problem: string) => text(`Error: ${problem}`, true);

// A schema SDK v2 shows clients as `json` and lets every value through (the tools check their own
// arguments, so every refusal reads `Error: <field>: expected …, received …`), as todo-tools' are.
const DIALECTS: Readonly<Record<string, string>> = {
  'draft-2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};
function shownAs(json: Record<string, unknown>) {
  const write = ({ target }: { target: string }) => {
    const dialect = DIALECTS[target];
    if (dialect === undefined) throw new Error(`@raider/server: no JSON Schema for the target ${target}`);
    return { $schema: dialect, ...structuredClone(json) };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'raider',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: write, output: write },
    },
  };
}

/** The tools' names and argument lists under each name set. */
function toolNames(names: Names) {
  return names === 'claude'
    ? { send: 'SendMessage', wait: 'WaitForMessages', sendArgs: ['to', 'message', 'summary', 'taskId'] }
    : { send: 'send_message', wait: 'wait_for_messages', sendArgs: ['to', 'message', 'taskId'] };
}

/** The input schema of send_message (SendMessage: Claude Code 2.1.332's `to`, `summary`, `message`, and `taskId`). */
function sendSchema(names: Names): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    to: {
      type: 'string',
      description: `The agent to send it to: its name (the owner it uses on tasks), or "${EVERYONE}" for every other agent of this task list.`,
    },
    ...(names === 'claude'
      ? {
          summary: {
            type: 'string',
            description: 'A 5-10 word summary, kept beside the message (cut at 200 characters).',
          },
        }
      : {}),
    message: { type: 'string', description: 'What to tell it, as plain text.' },
    taskId: { type: 'string', description: 'The task the message is about, when it is about one (e.g. "3").' },
  };
  return { type: 'object', properties, required: ['to', 'message'], additionalProperties: false };
}

const WAIT_SCHEMA = {
  type: 'object',
  properties: {
    timeoutSeconds: {
      type: 'number',
      minimum: 0,
      maximum: MAX_WAIT_SECONDS,
      description: `How long to wait for the first message when none waits, in seconds (default ${MAX_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}).`,
    },
  },
  additionalProperties: false,
};

/** The first argument `args` has that `allowed` lacks, as a refusal. */
function unknownArgument(args: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  const unknown = Object.keys(args).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return undefined;
  const which = unknown.map((key) => JSON.stringify(key)).join(', ');
  return `unknown ${unknown.length === 1 ? 'argument' : 'arguments'} ${which}: expected ${allowed.join(', ')}`;
}

/** What is wrong with send_message's arguments, or undefined. */
function sendProblem(args: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  const unknown = unknownArgument(args, allowed);
  if (unknown) return unknown;
  if (args.to !== EVERYONE) {
    const problem = typeof args.to === 'string' ? agentNameProblem(args.to) : undefined;
    if (typeof args.to !== 'string')
      return `to: expected an agent name or "${EVERYONE}", received ${received(args.to)}`;
    if (problem) return `to: ${problem}`;
  }
  if (typeof args.message !== 'string') {
    return `message: expected a plain-text message (a string), received ${received(args.message)}`;
  }
  if (args.message.trim() === '') return `message: expected a non-empty text, received ${received(args.message)}`;
  if (args.taskId !== undefined && typeof args.taskId !== 'string') {
    return `taskId: expected a task id such as "1", received ${received(args.taskId)}`;
  }
  if (args.summary !== undefined && typeof args.summary !== 'string') {
    return `summary: expected a string, received ${received(args.summary)}`;
  }
  return undefined;
}

/**
 * The text of a store's refusal of a send: a limit's own words; a write whose fate is unknown (a
 * connection lost in flight: `mayHaveBeenSaved`) says it may have been sent; else what failed and
 * that nothing was sent.
 */
export function sendFailure(error: unknown): string {
  if (MessageLimitError.isInstance(error)) return (error as Error).message;
  const reason = error instanceof Error ? error.message : String(error);
  // A connection lost while the write was in flight: it may have been saved, and may arrive.
  if ((error as { mayHaveBeenSaved?: unknown } | undefined)?.mayHaveBeenSaved === true) {
    return `the message may have been sent: ${reason}; it may still arrive, so send it again only if a duplicate does no harm`;
  }
  // The store's own "the message was not sent" is said once, as "nothing was sent".
  return `the message could not be sent: ${reason.replace(/; the message was not sent$/, '')}; nothing was sent`;
}

/** The owners of the tasks in a family's list state (raider://tasks), for the agents of a list. */
export function ownersIn(state: unknown): string[] {
  const tasks = (state as { tasks?: { owner?: unknown }[] } | undefined)?.tasks;
  if (!Array.isArray(tasks)) return [];
  return [...new Set(tasks.flatMap((task) => (typeof task?.owner === 'string' ? [task.owner] : [])))];
}

/** Makes the messaging of one conversation. */
export function createMessaging(options: MessagingOptions): Messaging {
  const { log } = options;
  // The list's inboxes; a conversation without a list keeps its own (a lone agent still has one).
  const own = options.list ? undefined : memoryMessageStore();
  const store = (): MessageStore => options.list?.messages() ?? (own as MessageStore);
  const roster = new Roster(store, log);
  /** The agents this conversation serves, each watched for raider://messages, and the stop of its watch. */
  const watched = new Map<string, () => void>();
  /** Told after a take here took messages (the board redraws the inbox: a store's watch does not tell of takes). */
  const takenListeners = new Set<(agent: string) => void>();
  let serving = options.team || options.agent !== undefined;
  let observed: ObservedTasks | undefined;

  const agentFor = (caller: Caller | undefined): string | undefined => {
    if (!options.team && options.agent === undefined && caller?.agent === undefined) return undefined;
    return options.agent ?? caller?.agent ?? options.conversationId;
  };

  /** Notes `agent` as served here: on the list's roster, its inbox watched for raider://messages. */
  const serve = (agent: string) => {
    serving = true;
    void roster.note(agent);
    if (watched.has(agent) || watched.size >= MAX_WATCHED_AGENTS) return;
    try {
      watched.set(
        agent,
        store().watch(agent, () => options.changed(MESSAGES_URI)),
      );
    } catch (error) {
      log.debug(`could not watch the inbox of ${agent}: ${(error as Error).message}`);
    }
  };

  /** Every agent of the list: on its roster, owning a task, or served here. */
  const agentsOfList = async (): Promise<string[]> => {
    const [listed, owners] = await Promise.all([roster.agents().catch(() => []), options.owners().catch(() => [])]);
    return [...new Set([...listed, ...owners, ...watched.keys()])];
  };

  const send = async (from: string, args: Record<string, unknown>): Promise<ToolCallResult> => {
    const outgoing = (to: string) => ({
      to,
      from,
      text: args.message as string,
      notification: false,
      ...(args.taskId === undefined ? {} : { taskId: args.taskId as string }),
      ...(args.summary === undefined ? {} : { label: (args.summary as string).slice(0, 200) }),
    });
    if (args.to !== EVERYONE) {
      const to = args.to as string;
      try {
        await store().send(outgoing(to));
      } catch (error) {
        return refusal(sendFailure(error));
      }
      void roster.note(to);
      return text(sentTo(to));
    }
    const others = (await agentsOfList()).filter((agent) => agent !== from);
    if (others.length === 0) {
      return refusal(
        `to: "${EVERYONE}" reaches no other agent of this list yet (its agents own tasks on it, have an inbox on it, or are connected); nothing was sent`,
      );
    }
    const failed: string[] = [];
    for (const agent of others) {
      try {
        await store().send(outgoing(agent));
      } catch (error) {
        failed.push(`not to ${agent}: ${sendFailure(error)}`);
      }
    }
    const sent = others.length - failed.length;
    if (sent === 0) return refusal(`nothing was sent; ${failed.join('; ')}`);
    return text([sentToAgents(sent), ...failed].join('; '));
  };

  /** Hands `delivery` on with the answer of the call `ctx`: done once it was written, released if not. */
  const handOn = (delivery: MessageDelivery, ctx: ServerContext, caller: Caller | undefined): ToolCallResult => {
    // The store may be down for a moment (a database restarting): tried again while the lease
    // holds. Past it another take may have the messages already, and trying is pointless.
    const lapses = Date.now() + DELIVERY_LEASE_MS;
    const settle = async (written: boolean) => {
      const what = written ? 'removed' : 'given back';
      for (;;) {
        try {
          await (written ? delivery.done() : delivery.release());
          return;
        } catch (error) {
          if (Date.now() + SETTLE_RETRY_MS >= lapses) {
            log.warn(`messages taken could not be ${what}: ${(error as Error).message}`);
            return;
          }
          log.debug(`messages taken could not be ${what} yet (tried again): ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, SETTLE_RETRY_MS).unref());
        }
      }
    };
    if (caller?.answers) void caller.answers.answered(ctx.mcpReq.id, ctx.mcpReq.signal).then(settle);
    else setImmediate(() => void settle(!ctx.mcpReq.signal.aborted));
    return text(deliveryText(delivery.messages));
  };

  const wait = async (
    agent: string,
    args: Record<string, unknown>,
    ctx: ServerContext,
    caller: Caller | undefined,
    server?: McpServer,
  ) => {
    const unknown = unknownArgument(args, ['timeoutSeconds']);
    if (unknown) return refusal(unknown);
    const seconds = args.timeoutSeconds ?? MAX_WAIT_SECONDS;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_SECONDS) {
      return refusal(`timeoutSeconds: expected a number from 0 to ${MAX_WAIT_SECONDS}, received ${received(seconds)}`);
    }
    const signal = ctx.mcpReq.signal;
    // The call's deadline (issue 28) may come before timeoutSeconds: then it answers "No messages yet".
    const cutMs = waitDeadlineMs(options.deadline, callClient(ctx, server?.server));
    const cut = cutMs < seconds * 1000;
    const deadline = Date.now() + Math.min(seconds * 1000, cutMs);
    let arrived = false;
    let wake = () => {};
    // Watched before each take, so a message sent between a take and the wait is not missed.
    const stop = store().watch(agent, () => {
      arrived = true;
      wake();
    });
    try {
      for (;;) {
        arrived = false;
        let delivery: MessageDelivery;
        try {
          delivery = await store().take(agent, { leaseMs: DELIVERY_LEASE_MS });
        } catch (error) {
          return refusal(`the messages could not be read: ${(error as Error).message}; none was taken`);
        }
        if (delivery.messages.length > 0) {
          for (const listener of takenListeners) listener(agent);
          if (!signal.aborted) return handOn(delivery, ctx, caller);
          await delivery.release().catch(() => {});
        }
        const left = deadline - Date.now();
        if (left <= 0 || signal.aborted) return text(cut && !signal.aborted ? NO_MESSAGES_YET : deliveryText([]));
        if (arrived) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, LOOK_AGAIN_MS));
          function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          }
          wake = done;
          signal.addEventListener('abort', done, { once: true });
        });
        wake = () => {};
      }
    } finally {
      stop();
    }
  };

  const inboxes: ConversationInboxes = {
    store,
    agents: agentsOfList,
    served: () => [...watched.keys()],
    async send(from, args) {
      const problem = sendProblem(args ?? {}, toolNames('raider').sendArgs);
      return problem ? refusal(problem) : send(from, args);
    },
    onTaken(listener) {
      // Wrapped: one function given twice is two subscriptions, each stopped on its own.
      const entry = (agent: string) => listener(agent);
      takenListeners.add(entry);
      return () => takenListeners.delete(entry);
    },
  };
  const unregister = registerInboxes(options.conversationId, inboxes);

  return {
    observe(list) {
      if (!list || !(serving || options.namedAgents)) return list;
      const tasks = observeTasks(list.tasks(), { messages: store, enabled: () => serving, log });
      observed = tasks;
      return new Proxy(list, {
        get: (target, key) => (key === 'tasks' ? () => tasks.store : Reflect.get(target, key, target)),
      });
    },
    agentFor,
    tellAnswered(question) {
      if (question.opener.agent === undefined || !serving) return;
      store()
        .send({
          to: question.opener.agent,
          text: notificationText({ taskId: question.id, status: 'completed', summary: answeredSummary(question) }),
          notification: true,
          about: question.id,
          label: answeredSummary(question),
        })
        .catch((error: unknown) => {
          log.warn(
            `the answer of ${question.id} could not be announced to ${question.opener.agent}: ${(error as Error).message}`,
          );
        });
    },
    registrar(registrar, caller) {
      const agent = agentFor(caller);
      // Nothing to add for a server with no agent on a list nobody announces: the family's own calls.
      if (agent === undefined && observed === undefined) return registrar;
      return {
        registerTool: (name, config, handler) =>
          registrar.registerTool(name, config, async (args, ctx) => {
            const result = await (agent === undefined
              ? handler(args, ctx)
              : callingAgent.run(agent, () => handler(args, ctx)));
            // The wake-ups the call caused are in their inboxes before it answers.
            await observed?.flush();
            return result;
          }),
      };
    },
    mount(server, caller, resources) {
      const agent = agentFor(caller);
      if (agent === undefined) return;
      serve(agent);
      const names = toolNames(options.names);
      const hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
      server.registerTool(
        names.send,
        {
          title: 'Send a message',
          description: `Send a plain-text message to another agent of this task list by its name (the owner it uses on tasks), or to every other agent with to: "${EVERYONE}". It waits in that agent's inbox until the agent takes it with ${names.wait}. You are "${agent}".`,
          inputSchema: shownAs(sendSchema(options.names)),
          annotations: hints,
        } as never,
        (async (args: Record<string, unknown>) => {
          const problem = sendProblem(args ?? {}, names.sendArgs);
          return problem ? refusal(problem) : send(agent, args);
        }) as never,
      );
      server.registerTool(
        names.wait,
        {
          title: 'Wait for messages',
          description: `Take what waits for you ("${agent}"): messages from other agents, and the <task-notification>s raider sends when a task you own or wait for changes (a task blocking yours completed or was deleted, your claim lapsed, someone else changed your task). Answers at once when something waits, else waits up to timeoutSeconds (default ${MAX_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}) for the first message; "No messages" when none came, "No messages yet" when the wait reached its deadline first (call again to keep waiting).`,
          inputSchema: shownAs(WAIT_SCHEMA),
          annotations: hints,
        } as never,
        withProgress(
          (args: Record<string, unknown>, ctx: ServerContext) => wait(agent, args ?? {}, ctx, caller, server),
          options.progressEveryMs,
        ) as never,
      );
      const read = async () => {
        const waiting: StoredMessage[] = await store().peek(agent);
        return {
          contents: [
            {
              uri: MESSAGES_URI,
              mimeType: 'application/json',
              text: JSON.stringify({ agent, messages: waiting }, null, 2),
            },
          ],
        };
      };
      server.registerResource(
        'messages',
        MESSAGES_URI,
        {
          title: 'Messages',
          description: `What waits for "${agent}" in its inbox on this list (messages and notifications not taken yet).`,
          mimeType: 'application/json',
        },
        read,
      );
      resources.addReader(MESSAGES_URI, read);
    },
    close() {
      for (const stop of watched.values()) stop();
      watched.clear();
      takenListeners.clear();
      unregister();
    },
  };
}
