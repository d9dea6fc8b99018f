/**
 * The SDK server each server of a conversation is: an McpServer with the conversation's
 * instructions and capabilities, which can show a feature each request it receives before the SDK
 * handles it (the board app is offered on the request that announces MCP Apps).
 */
import {
  isJSONRPCRequest,
  type JSONRPCRequest,
  McpServer,
  type McpServerOptions,
  type Transport,
} from '@modelcontextprotocol/server';
import type { Family, Names } from '../types.js';
import { VERSION } from '../version.js';
import { instructions } from './instructions.js';

/** Sees a request as it arrives; returns true once it needs to see no more. */
export type RequestWatcher = (request: JSONRPCRequest) => boolean;

/**
 * An McpServer that shows `watchRequests` watchers each request before the SDK handles it. The
 * SDK's Protocol keeps a transport's `onmessage` set before `connect` and calls it first with each
 * message, so the watch is that callback, set here as the server takes its transport: neither the
 * transport nor the server is patched, and a per-request transport stays the SDK's own (the SDK
 * tells a 2026-era request's transport by its class).
 */
export class ConversationMcpServer extends McpServer {
  private readonly watchers: RequestWatcher[] = [];

  /** Shows `watcher` each request this server receives from now on, before the SDK handles it, until it returns true. */
  watchRequests(watcher: RequestWatcher): void {
    this.watchers.push(watcher);
  }

  override async connect(transport: Transport): Promise<void> {
    if (this.watchers.length > 0) {
      const watchers = this.watchers;
      const before = transport.onmessage;
      transport.onmessage = (message, extra) => {
        if (watchers.length > 0 && isJSONRPCRequest(message)) {
          for (const watcher of [...watchers]) if (watcher(message)) watchers.splice(watchers.indexOf(watcher), 1);
        }
        before?.(message, extra);
      };
    }
    await super.connect(transport);
  }
}

/** A fresh server of the conversation, with its instructions and capabilities. */
export function openServer(options: { family: Family; names: Names; askTimeoutMs: number }): ConversationMcpServer {
  const serverOptions: McpServerOptions = {
    capabilities: { resources: { subscribe: true, listChanged: true } },
    instructions: instructions(options.family, options.names),
    // Offering the board app registers three tools and a resource and links the list tools, each
    // of which the SDK announces: a client that renders apps got four or five tools/list_changed
    // before it had listed anything. Those sent in one tick go out as one.
    debouncedNotificationMethods: ['notifications/tools/list_changed', 'notifications/resources/list_changed'],
    // The SDK's shim asks a 2025-era client for an input_required round as long as a question may wait.
    inputRequired: { roundTimeoutMs: options.askTimeoutMs },
  };
  return new ConversationMcpServer({ name: 'raider-server', version: VERSION }, serverOptions);
}
