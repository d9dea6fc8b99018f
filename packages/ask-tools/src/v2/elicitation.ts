/**
 * An answerer that asks a 2025-era client's user with a real `elicitation/create` while the call
 * waits, on the MCP TypeScript SDK v2: the `.` entry's `elicitationAnswerer`, for an application
 * that races the client's user against its own way to reach a person (a web board) on one call.
 * The forms are the SDK-neutral ones of `../core`, as on v1. A 2026-era request has no
 * server-to-client requests: there the SDK reports no client capabilities, so this answerer
 * yields none and AskTools asks with `input_required` instead.
 */
import { SdkError, SdkErrorCode, type Server } from '@modelcontextprotocol/server';
import { DEFAULT_TIMEOUT_MS } from '../core/asking.js';
import { formAsker } from '../core/form-elicitation.js';
import type { Answerer } from '../core/types.js';

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

/** What an error of v2's `elicitInput` means for the question: its timeout, a closed connection, or neither. */
function failure(error: unknown): 'timeout' | 'disconnected' | undefined {
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return 'timeout';
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) return 'disconnected';
  return undefined;
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
    return formAsker(
      { elicitInput: ({ params, options }) => low.elicitInput(params as never, options), failure },
      timeout,
    );
  };
}
