/**
 * An answerer that asks the connected MCP client's user, through form elicitation, on the MCP
 * TypeScript SDK v1. The forms are the SDK-neutral ones of `../core` (the v2 adapter sends the
 * same), so both SDKs ask with the same fields and read the same answers.
 */

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TIMEOUT_MS } from '../core/asking.js';
import { formAsker } from '../core/form-elicitation.js';
import type { Answerer } from '../core/types.js';

/** The part of a v1 server elicitation needs: the client's capabilities and `elicitInput`. */
type ElicitingLowLevel = Pick<Server, 'getClientCapabilities' | 'elicitInput'>;

/**
 * The part of a v1 server the elicitation answerer needs: a low-level `Server`, or an `McpServer`
 * (through its `server`).
 */
export type ElicitingServer = ElicitingLowLevel | { readonly server: ElicitingLowLevel };

const lowLevel = (server: ElicitingServer): ElicitingLowLevel => ('server' in server ? server.server : server);

/** What an error of v1's `elicitInput` means for the question: its timeout, a closed connection, or neither. */
function failure(error: unknown): 'timeout' | 'disconnected' | undefined {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return 'timeout';
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return 'disconnected';
  return undefined;
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
    return formAsker(
      { elicitInput: ({ params, options }) => low.elicitInput(params as never, options), failure },
      timeout,
    );
  };
}
