/**
 * An answerer that asks the connected MCP client's user, through form elicitation, on the MCP
 * TypeScript SDK v1. The forms are the SDK-neutral ones of `../core` (the v2 adapter sends the
 * same), so both SDKs ask with the same fields and read the same answers.
 */

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ASK_USER } from '../core/ask-user.js';
import { ASK_USER_QUESTION } from '../core/ask-user-question.js';
import { DEFAULT_TIMEOUT_MS } from '../core/asking.js';
import { callContext } from '../core/context.js';
import { acceptedForm, type ElicitationForm } from '../core/elicitation-form.js';
import { AskError } from '../core/errors.js';
import type { Answerer, Asker } from '../core/types.js';

/** The part of a v1 server elicitation needs: the client's capabilities and `elicitInput`. */
type ElicitingLowLevel = Pick<Server, 'getClientCapabilities' | 'elicitInput'>;

/**
 * The part of a v1 server the elicitation answerer needs: a low-level `Server`, or an `McpServer`
 * (through its `server`).
 */
export type ElicitingServer = ElicitingLowLevel | { readonly server: ElicitingLowLevel };

const lowLevel = (server: ElicitingServer): ElicitingLowLevel => ('server' in server ? server.server : server);

/** Sends one form and maps every outcome that is not an accepted form to an AskError. */
async function elicit(
  server: ElicitingLowLevel,
  form: ElicitationForm,
  signal: AbortSignal,
  timeout: number,
): Promise<Record<string, unknown>> {
  const relatedRequestId = callContext.getStore()?.requestId;
  let result: Awaited<ReturnType<Server['elicitInput']>>;
  try {
    result = await server.elicitInput(
      { mode: 'form', message: form.message, requestedSchema: form.requestedSchema as never },
      { timeout, signal, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) },
    );
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) throw new AskError('timeout');
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) throw new AskError('disconnected');
    throw error;
  }
  return acceptedForm(result as { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> });
}

/**
 * An answerer that puts questions to the connected client's user with `elicitInput` (form mode):
 * a question with options as a single choice that also takes free text, one without as free text,
 * related to the tool call, with a long timeout (`timeoutMs`, default 30 minutes) and the call's
 * AbortSignal. Asked on every call: when the client did not declare form elicitation it yields
 * `undefined`, so the tool refuses plainly. Outcomes: decline, cancel, timeout and a closed
 * connection throw AskErrors (`declined`, `cancelled`, `timeout`, `disconnected`).
 */
export function elicitationAnswerer(server: ElicitingServer, options: { timeoutMs?: number } = {}): Answerer {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return () => {
    const low = lowLevel(server);
    if (!low.getClientCapabilities()?.elicitation?.form) return undefined;
    const asker: Asker = async (question, choices, signal) => {
      const input = { question, options: choices };
      return ASK_USER.read(input, await elicit(low, ASK_USER.form(input), signal, timeout));
    };
    asker.form = async (questions, signal) => {
      const input = { questions };
      return ASK_USER_QUESTION.read(input, await elicit(low, ASK_USER_QUESTION.form(input), signal, timeout));
    };
    return asker;
  };
}
