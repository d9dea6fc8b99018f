/**
 * The tool call a question belongs to, carried across the asker so the elicitation answerer can
 * relate its request to the call (`relatedRequestId`) without widening the Asker signature.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** What an answerer may know of the tool call that asks. */
export interface CallContext {
  /** The JSON-RPC id of the tools/call request. */
  requestId?: string | number;
}

/** The context of the tool call being answered. */
export const callContext = new AsyncLocalStorage<CallContext>();
