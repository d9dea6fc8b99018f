/**
 * The messaging tools as clients see them (messages.ts makes them work): their names under each
 * name set, their input schemas, the checks of their arguments, and their mounting.
 */
import { received } from '@raider/kit/received';
import { oneLine } from '@raider/kit/shown-text';
import type { ToolCallResult } from '@raider/todo-tools/v2';
import { agentNameProblem, EVERYONE } from '../../agent-name.js';
import type { CallContext, ToolPipeline } from '../../conversation/call-pipeline.js';
import type { Names } from '../../types.js';

/** The longest wait_for_messages waits, and its default, in seconds (under Claude Code's 120 s auto-background). */
export const MAX_WAIT_SECONDS = 50;

export const text = (answer: string, isError = false): ToolCallResult =>
  ({ content: [{ type: 'text', text: answer }], ...(isError ? { isError: true } : {}) }) as ToolCallResult;
export const refusal = (problem: string) => text(`Error: ${problem}`, true);

// A schema SDK v2 shows clients as `json` and lets every value through (the tools check their own
// arguments, so every refusal reads `Error: <field>: expected …, received …`), as todo-tools' are.
const DIALECTS: Readonly<Record<string, string>> = {
  'draft-2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};
export function shownAs(json: Record<string, unknown>) {
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
export function toolNames(names: Names) {
  return names === 'claude'
    ? { send: 'SendMessage', wait: 'WaitForMessages', sendArgs: ['to', 'message', 'summary', 'taskId'] }
    : { send: 'send_message', wait: 'wait_for_messages', sendArgs: ['to', 'message', 'taskId'] };
}

/** The input schema of send_message (SendMessage: Claude Code 2.1.332's `to`, `summary`, `message`, and `taskId`). */
export function sendSchema(names: Names): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    to: {
      type: 'string',
      description: `The agent to send it to: the name of an agent of this task list (one that has connected to it; the owner it uses on tasks), or "${EVERYONE}" for every other agent of it.`,
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

export const WAIT_SCHEMA = {
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
export function unknownArgument(args: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  const unknown = Object.keys(args).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return undefined;
  const which = unknown.map((key) => JSON.stringify(key)).join(', ');
  return `unknown ${unknown.length === 1 ? 'argument' : 'arguments'} ${which}: expected ${allowed.join(', ')}`;
}

/** What is wrong with send_message's arguments, or undefined. */
export function sendProblem(args: Record<string, unknown>, allowed: readonly string[]): string | undefined {
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
 * send_message's description, as the model reads it: who it can write to (the agents of the list,
 * those that connected to it under their names), what `to: "*"` reaches, and what a name not seen
 * yet gets (refused with the names there are, or, with `sendToUnseen`, written to all the same).
 */
export function sendDescription(agent: string, names: Names, sendToUnseen: boolean): string {
  const { wait } = toolNames(names);
  const unseen = sendToUnseen
    ? 'a name no agent has connected as yet is written to all the same, and waits for an agent of that name'
    : 'a name no agent has connected as is refused, with the names there are';
  return `Send a plain-text message to another agent of this task list by its name (the owner it uses on tasks), or to every other agent with to: "${EVERYONE}". The agents of this list are those that have connected to it under their names; ${unseen}. It waits in that agent's inbox until the agent takes it with ${wait}. You are "${oneLine(agent)}".`;
}

/** What the messaging tools do when called, for the agent they are mounted for. */
export interface MessageToolCalls {
  send(args: Record<string, unknown>): Promise<ToolCallResult>;
  wait(args: Record<string, unknown>, call: CallContext): Promise<ToolCallResult>;
}

/**
 * Mounts send_message and wait_for_messages (SendMessage, WaitForMessages under Claude names) for
 * `agent` through a server's call pipeline, `tools`; wait_for_messages sends progress while it waits.
 */
export function mountMessageTools(
  tools: ToolPipeline,
  agent: string,
  options: { names: Names; sendToUnseen: boolean },
  calls: MessageToolCalls,
): void {
  const names = toolNames(options.names);
  const hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
  tools.register({
    name: names.send,
    config: {
      title: 'Send a message',
      description: sendDescription(agent, options.names, options.sendToUnseen),
      inputSchema: shownAs(sendSchema(options.names)),
      annotations: hints,
    },
    handler: async (args) => {
      const problem = sendProblem(args ?? {}, names.sendArgs);
      return problem ? refusal(problem) : calls.send(args);
    },
  });
  tools.register({
    name: names.wait,
    config: {
      title: 'Wait for messages',
      description: `Take what waits for you ("${oneLine(agent)}"): messages from other agents, and the <task-notification>s raider sends when a task you own or wait for changes (a task blocking yours completed or was deleted, your claim lapsed, someone else changed, deleted or assigned your task; its <task-type> names which, and it has a <status> only when something ended). Answers at once when something waits, else waits up to timeoutSeconds (default ${MAX_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}) for the first message; "No messages" when none came, "No messages yet" when the wait reached its deadline first (call again to keep waiting).`,
      inputSchema: shownAs(WAIT_SCHEMA),
      annotations: hints,
    },
    handler: (args, call) => calls.wait(args ?? {}, call),
    progress: true,
  });
}
