/** stdio: one conversation for the process; stdout carries the protocol only. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type Conversation, createConversation, listFor } from './conversation.js';
import { listFileName, projectListId, watchLists } from './file-store.js';
import { type Logger, silent } from './log.js';
import type { ServerOptions } from './options.js';
import { guardToolCalls } from './tool-call-guard.js';

/** A running stdio server. */
export interface StdioServer {
  readonly conversation: Conversation;
  /** Resolves when the client goes away (stdin ends). */
  readonly closed: Promise<void>;
  /** Ends open questions and closes the conversation. */
  close(reason?: string): Promise<void>;
}

/**
 * Serves one conversation over this process's stdin and stdout. Its list: `options.list`, else,
 * with a data dir, the project's (from CLAUDE_PROJECT_DIR, else the working directory), so a
 * project's tasks survive restarts.
 */
export async function startStdio(
  options: ServerOptions,
  log: Logger = silent,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StdioServer> {
  const id = options.list ?? (options.dataDir ? projectListId(env.CLAUDE_PROJECT_DIR ?? process.cwd()) : undefined);
  const list = listFor(options.dataDir, id);
  if (list) log.info(`list ${list.id}${options.dataDir ? ` in ${options.dataDir}` : ' (in memory)'}`);
  const conversation = createConversation({
    family: options.family,
    names: options.names,
    askTimeoutMs: options.askTimeoutMs,
    limits: options.limits,
    log,
    ...(list ? { list } : {}),
  });
  // Another process writing the same list: subscribers of raider://tasks hear of it.
  const unwatch =
    options.dataDir && list
      ? watchLists(options.dataDir, (file) => {
          if (file === listFileName(list.id)) conversation.listChangedElsewhere();
        })
      : () => {};
  const transport = new StdioServerTransport();
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  transport.onclose = () => markClosed();
  process.stdin.once('end', () => markClosed());
  await conversation.server.connect(guardToolCalls(transport));
  return {
    conversation,
    closed,
    async close(reason = 'the server is shutting down') {
      unwatch();
      await conversation.close(reason);
      markClosed();
    },
  };
}
