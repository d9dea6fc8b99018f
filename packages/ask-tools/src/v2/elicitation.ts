/**
 * An answerer that asks a 2025-era client's user with a real `elicitation/create` while the call
 * waits, on the MCP TypeScript SDK v2: the `.` entry's `elicitationAnswerer`, for an application
 * that races the client's user against its own way to reach a person (a web board) on one call.
 * The forms are the SDK-neutral ones of `../core`, as on v1. A 2026-era request has no
 * server-to-client requests: there the SDK reports no client capabilities, so this answerer
 * yields none and AskTools asks with `input_required` instead.
 */
import { type ElicitResult, SdkError, SdkErrorCode, type Server } from '@modelcontextprotocol/server';
import { ASK_USER } from '../core/ask-user.js';
import { ASK_USER_QUESTION } from '../core/ask-user-question.js';
import { DEFAULT_TIMEOUT_MS } from '../core/asking.js';
import { callContext } from '../core/context.js';
import { acceptedForm, type ElicitationForm } from '../core/elicitation-form.js';
import { AskError } from '../core/errors.js';
import type { Answerer, Asker } from '../core/types.js';

/**
 * The part of a v2 server elicitation needs: the client's capabilities, `elicitInput`, and the
 * revision it serves (a 2026-era instance may know the client's capabilities from the request's
 * envelope, but can send it no request).
 */
type ElicitingLowLevel = Pick<Server, 'getClientCapabilities' | 'elicitInput' | 'getNegotiatedProtocolVersion'>;

/** True for a revision of the 2026 era or later (revisions are dates: `YYYY-MM-DD`). */
const isModernRevision = (version: string | undefined): boolean => version !== undefined && version >= '2026-07-28';

/**
 * The part of a v2 server the elicitation answerer needs: a low-level `Server`, or an `McpServer`
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
  let result: ElicitResult;
  try {
    result = await server.elicitInput(
      { mode: 'form', message: form.message, requestedSchema: form.requestedSchema as never },
      { timeout, signal, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) },
    );
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) throw new AskError('timeout');
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) throw new AskError('disconnected');
    throw error;
  }
  return acceptedForm(result as { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> });
}

/**
 * An answerer that asks the connected 2025-era client's user with `elicitInput` (form mode),
 * related to the tool call, with the call's signal and a long timeout (default 30 minutes, not
 * the SDK's 60 s). It yields `undefined` when the client declared no form elicitation at
 * `initialize`, and on every 2026-era connection (which has no `initialize`).
 */
export function elicitationAnswerer(server: ElicitingServer, options: { timeoutMs?: number } = {}): Answerer {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return () => {
    const low = lowLevel(server);
    if (isModernRevision(low.getNegotiatedProtocolVersion())) return undefined;
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
