/**
 * Progress while a call waits. A client cuts a call that sends neither its result nor progress
 * for too long (Claude Code: 300 s over HTTP, 30 min over stdio) and moves one running past 120 s
 * to the background; `notifications/progress` for the call's token resets its idle timer. So any
 * tool call that is still running after a while (a list lock another process holds, a slow hook,
 * the board app's long poll) sends progress at a steady interval, when the client gave a token.
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** How often a waiting call sends progress, in ms (below every idle limit known). */
export const PROGRESS_EVERY_MS = 15_000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * `handler` sending `notifications/progress` (progress 1, 2, …) every `everyMs` while it runs,
 * when the request carries a progress token; nothing otherwise.
 */
export function withProgress<A extends unknown[]>(
  handler: (...args: A) => unknown,
  everyMs = PROGRESS_EVERY_MS,
): (...args: A) => Promise<unknown> {
  return async (...args: A) => {
    // The SDK calls a tool handler with (args, extra), or (extra) for a tool without input.
    const extra = args.at(-1) as Extra | undefined;
    const progressToken = extra?._meta?.progressToken;
    if (progressToken === undefined || typeof extra?.sendNotification !== 'function') return handler(...args);
    let progress = 0;
    const timer = setInterval(() => {
      progress += 1;
      extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress } }).catch(() => {});
    }, everyMs);
    timer.unref();
    try {
      return await handler(...args);
    } finally {
      clearInterval(timer);
    }
  };
}
