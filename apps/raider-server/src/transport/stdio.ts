/**
 * stdio: one conversation for the process; stdout carries the protocol only. The SDK's
 * `serveStdio` picks the era from the client's opening (`initialize`: 2025; `server/discover` or
 * an enveloped request: 2026-07-28) and pins one server for the connection; nothing heavy runs
 * before the first message (a v2 client may spawn a process only to probe the era).
 */
import { homedir } from 'node:os';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { claudeListId, claudeTaskFolder } from '@raider/file-store';
import { type Conversation, createConversation, settingsOf } from '../conversation/conversation.js';
import { claudeSessionList } from '../lists/claude-session-list.js';
import { listFor } from '../lists/list-for.js';
import { projectListId } from '../lists/project-list.js';
import { type Logger, silent } from '../log.js';
import type { ServerOptions } from '../options.js';
import { createRuntime, type ServerRuntime } from '../runtime.js';
import { SHUTDOWN_GRACE_MS } from '../shutdown.js';
import { RaiderStdioTransport } from './stdio-transport.js';
import { tapTransport } from './transport-tap.js';

/** Why a stdio server ended: the client went away, a shutdown, or a failure (`failed`: exit 1). */
export interface StdioEnd {
  reason: string;
  failed: boolean;
}

/** A running stdio server. */
export interface StdioServer {
  readonly conversation: Conversation;
  /** What the server's conversation draws on (its list in memory, its database pool, its desks), its own; closed by `close()`. */
  readonly runtime: ServerRuntime;
  /** Resolves when the server ends: the client went away (stdin ended), it was closed, or it failed. */
  readonly closed: Promise<StdioEnd>;
  /**
   * Stops taking calls, withdraws open questions, lets the calls in flight finish and answer
   * (at most `graceMs`), then closes the conversation and the runtime.
   */
  close(reason?: string, graceMs?: number): Promise<void>;
}

/**
 * Serves one conversation over this process's stdin and stdout. Its list: `options.list`, else,
 * with a data dir, the project's (from CLAUDE_PROJECT_DIR, else the working directory), so a
 * project's tasks survive restarts. With --claude-tasks and the list found from
 * CLAUDE_CODE_SESSION_ID, the list follows the session's folder when Claude Code moves it into
 * its team's (`claudeSessionList`).
 */
export async function startStdio(
  options: ServerOptions,
  log: Logger = silent,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StdioServer> {
  const durable = options.dataDir ?? (options.databaseUrl ? 'the database' : undefined);
  const id = options.list ?? (durable ? projectListId(env.CLAUDE_PROJECT_DIR ?? process.cwd()) : undefined);
  const runtime = createRuntime();
  const list = followsClaudeSession(options, env)
    ? claudeSessionList(env, homeOf(env), log)
    : listFor(runtime, options, id, { log });
  if (list) log.info(`list ${list.id}${durable ? ` in ${durable}` : ' (in memory)'}`);
  const conversation = createConversation({
    ...settingsOf(options),
    runtime,
    log,
    ...(list ? { list } : {}),
  });
  const tapped = tapTransport(new RaiderStdioTransport());
  let markClosed: (end: StdioEnd) => void = () => {};
  const closed = new Promise<StdioEnd>((resolve) => {
    markClosed = resolve;
  });
  // A message past the transport's size limit makes it give up reading: say so, not "the client
  // went away".
  let failure: string | undefined;
  tapped.onFailure((error) => {
    if (/exceeded maximum size/.test(error.message)) {
      failure = `a message from the client passed the stdio transport's limit (${error.message}); the server stops`;
    }
  });
  tapped.whenClosed(() =>
    markClosed(failure ? { reason: failure, failed: true } : { reason: 'the client went away', failed: false }),
  );
  process.stdin.once('end', () => markClosed({ reason: 'the client went away', failed: false }));
  // One server per connection, of the era its opening chose (a discarded probe's server too).
  // Messages taken for a call are removed once the tap saw its answer written (the agent: --agent).
  const served = serveStdio(({ era }) => conversation.newServer(era, undefined, { answers: tapped }), {
    transport: tapped.transport,
    onerror: (error) => log.debug(`stdio: ${error.message}`),
  });
  return {
    conversation,
    runtime,
    closed,
    async close(reason = 'the server is shutting down', graceMs = SHUTDOWN_GRACE_MS) {
      // Take no new calls; withdraw open questions (their calls answer at once); let the calls in
      // flight finish and answer, then close.
      process.stdin.pause();
      conversation.endQuestions(reason);
      if (!(await tapped.drained(graceMs))) {
        log.warn(`${tapped.inFlight()} calls were still running after ${graceMs} ms; they get no answer`);
      }
      await conversation.close(reason);
      await served.close().catch(() => {});
      await runtime.close().catch(() => {});
      markClosed({ reason, failed: false });
    },
  };
}

const homeOf = (env: NodeJS.ProcessEnv) => env.HOME || homedir();

/**
 * True when the list is Claude Code's session's, found from CLAUDE_CODE_SESSION_ID
 * (--claude-tasks, neither CLAUDE_CODE_TASK_LIST_ID nor --list naming another): then it may move
 * while the server runs.
 */
function followsClaudeSession(options: ServerOptions, env: NodeJS.ProcessEnv): boolean {
  if (!options.claudeTasks || options.databaseUrl !== undefined || options.list === undefined) return false;
  const claude = claudeTaskFolder(env, homeOf(env));
  if (claude.sessionId === undefined || claude.dataDir !== options.dataDir) return false;
  // The session's own id too: Claude Code may have moved the folder since the options were read.
  return options.list === claude.listId || options.list === claudeListId(claude.sessionId);
}
