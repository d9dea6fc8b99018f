/**
 * Progress while a call waits. A client cuts a call that sends neither its result nor progress
 * for too long (Claude Code: 300 s over HTTP, 30 min over stdio) and moves one running past 120 s
 * to the background; `notifications/progress` for the call's token resets its idle timer. So any
 * tool call that is still running after a while (a list lock another process holds, a slow hook,
 * the board app's long poll) sends progress at a steady interval, when the client gave a token.
 */
import type { ServerContext } from '@modelcontextprotocol/server';

/** How often a waiting call sends progress, in ms (below every idle limit known). */
export const PROGRESS_EVERY_MS = 15_000;

/** The part of a v2 handler's context progress needs. */
export type ProgressContext = { mcpReq: Pick<ServerContext['mcpReq'], '_meta' | 'notify'> };

/**
 * `handler` sending `notifications/progress` (progress 1, 2, …) every `everyMs` while it runs,
 * when the request carries a progress token; nothing otherwise.
 */
export function withProgress<A, C extends ProgressContext, R>(
  handler: (args: A, ctx: C) => R | Promise<R>,
  everyMs = PROGRESS_EVERY_MS,
): (args: A, ctx: C) => Promise<R> {
  return async (args, ctx) => {
    const progressToken = ctx?.mcpReq?._meta?.progressToken;
    if (progressToken === undefined || typeof ctx.mcpReq.notify !== 'function') return handler(args, ctx);
    let progress = 0;
    const timer = setInterval(() => {
      progress += 1;
      ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress } }).catch(() => {});
    }, everyMs);
    timer.unref();
    try {
      return await handler(args, ctx);
    } finally {
      clearInterval(timer);
    }
  };
}
