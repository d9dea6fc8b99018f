/**
 * An answerer that asks the connected MCP client's user, through form elicitation.
 */

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { callContext } from '../core/context.js';
import { AskError } from '../core/errors.js';
import type { Answerer, Asker, FormQuestion } from '../core/types.js';

/** How long the person has to answer by default: 30 minutes (the SDK's 60 s default cuts people off). */
export const DEFAULT_TIMEOUT_MS = 30 * 60_000;

type Schema = { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };

const lowLevel = (server: McpServer | Server): Server => ('server' in server ? server.server : server);

/** Sends one form and maps every outcome that is not an accepted form to an AskError. */
async function elicit(
  server: Server,
  message: string,
  requestedSchema: Schema,
  signal: AbortSignal,
  timeout: number,
): Promise<Record<string, unknown>> {
  const relatedRequestId = callContext.getStore()?.requestId;
  let result: Awaited<ReturnType<Server['elicitInput']>>;
  try {
    result = await server.elicitInput(
      { mode: 'form', message, requestedSchema: requestedSchema as never },
      { timeout, signal, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) },
    );
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) throw new AskError('timeout');
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) throw new AskError('disconnected');
    throw error;
  }
  if (result.action === 'decline') throw new AskError('declined');
  if (result.action === 'cancel') throw new AskError('cancelled');
  return (result.content ?? {}) as Record<string, unknown>;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The form of one ask_user question: a single choice that also takes free text, or free text. */
function questionSchema(options: string[]): Schema {
  if (!options.length) {
    return { type: 'object', properties: { answer: { type: 'string', title: 'Your answer' } }, required: ['answer'] };
  }
  return {
    type: 'object',
    properties: {
      choice: { type: 'string', title: 'Choose one', oneOf: options.map((o) => ({ const: o, title: o })) },
      other: { type: 'string', title: 'Or answer in your own words' },
    },
  };
}

/** The form of AskUserQuestion: one field per question (multiSelect as a multiple choice) and a free-text field beside each. */
function formSchema(questions: FormQuestion[]): Schema {
  const properties: Schema['properties'] = {};
  questions.forEach((q, i) => {
    const described = q.options.map((o) => (o.description ? `${o.label}: ${o.description}` : o.label)).join('; ');
    properties[`q${i + 1}`] = q.multiSelect
      ? {
          type: 'array',
          title: q.header,
          description: `${q.question} (choose any: ${described})`,
          items: { type: 'string', enum: q.options.map((o) => o.label) },
        }
      : {
          type: 'string',
          title: q.header,
          description: q.question,
          oneOf: q.options.map((o) => ({
            const: o.label,
            title: o.description ? `${o.label}: ${o.description}` : o.label,
          })),
        };
    properties[`q${i + 1}_other`] = {
      type: 'string',
      title: `${q.header}: other`,
      description: 'Or answer in your own words',
    };
  });
  return { type: 'object', properties };
}

/**
 * An answerer that puts questions to the connected client's user with `elicitInput` (form mode):
 * a question with options as a single choice that also takes free text, one without as free text,
 * related to the tool call, with a long timeout (`timeoutMs`, default 30 minutes) and the call's
 * AbortSignal. Asked on every call: when the client did not declare form elicitation it yields
 * `undefined`, so the tool refuses plainly. Outcomes: decline, cancel, timeout and a closed
 * connection throw AskErrors (`declined`, `cancelled`, `timeout`, `disconnected`).
 */
export function elicitationAnswerer(server: McpServer | Server, options: { timeoutMs?: number } = {}): Answerer {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return () => {
    const low = lowLevel(server);
    if (!low.getClientCapabilities()?.elicitation?.form) return undefined;
    const asker: Asker = async (question, choices, signal) => {
      const content = await elicit(low, question, questionSchema(choices), signal, timeout);
      const answer = choices.length ? text(content.other) || text(content.choice) : text(content.answer);
      return answer === '' ? undefined : answer;
    };
    asker.form = async (questions, signal) => {
      const message =
        questions.length === 1 ? (questions[0] as FormQuestion).question : 'Please answer these questions.';
      const content = await elicit(low, message, formSchema(questions), signal, timeout);
      return questions.map((q, i) => {
        const other = text(content[`q${i + 1}_other`]);
        const picked = content[`q${i + 1}`];
        if (q.multiSelect) {
          const labels = Array.isArray(picked) ? picked.filter((v): v is string => typeof v === 'string') : [];
          const all = other ? [...labels, other] : labels;
          return all.length ? all.join(', ') : undefined;
        }
        return other || text(picked) || undefined;
      });
    };
    return asker;
  };
}
