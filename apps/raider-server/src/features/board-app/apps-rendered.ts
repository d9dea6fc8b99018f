/**
 * When the board app is offered: once a server's client is known to render MCP Apps (the others
 * see today's tools, and pay nothing for it: the app's tools are registered only then). 2025 era:
 * at initialize. 2026 era: in a request's envelope; a server made for one request knows at once,
 * one pinned to a connection offers it from the first request that announces it.
 */
import type { ConversationMcpServer } from '../../conversation/conversation-server.js';
import { envelopeCapabilities } from '../../conversation/envelope.js';
import type { Era } from '../../types.js';
import { rendersApps } from './board-app.js';

/**
 * Calls `offer` once, for the first request `server` receives whose envelope announces MCP Apps:
 * for a 2026-era server made before any request and kept for a connection (stdio, where
 * `serveStdio` pins one). It runs as the request arrives, before the SDK handles it
 * (`watchRequests`), so that request (a tools/list, say) already sees the app; the later
 * registrations reach the client as tools/list_changed on its `subscriptions/listen` streams.
 * Until then the check is one look at each incoming request's `_meta`; after it, nothing.
 */
export function offerOnAnnouncement(server: ConversationMcpServer, offer: () => void): void {
  server.watchRequests((request) => {
    if (!rendersApps(envelopeCapabilities(request))) return false;
    offer();
    return true;
  });
}

/** Calls `offer` once `server`'s client is known to render MCP Apps (see the module's comment). */
export function whenAppsRendered(
  server: ConversationMcpServer,
  era: Era,
  request: { clientCapabilities?: unknown } | undefined,
  offer: () => void,
): void {
  if (era === 'legacy') {
    server.server.oninitialized = () => {
      if (rendersApps(server.server.getClientCapabilities())) offer();
    };
  } else if (request === undefined) offerOnAnnouncement(server, offer);
  else if (rendersApps(request.clientCapabilities)) offer();
}
