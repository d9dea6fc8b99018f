/**
 * AskTools on the MCP TypeScript SDK v1 (`@modelcontextprotocol/sdk`): raider's ask_user tool
 * and Claude Code's AskUserQuestion, as MCP tools. The tools ask nobody themselves: the
 * answerer yields the way to put a question to a person, asked on every call; without one they
 * refuse plainly, so a run nobody watches never blocks. The tools and AskTools itself are
 * SDK-neutral (`../core`); this adapter binds them to the v1 SDK: it mounts them and holds the
 * call while the person answers.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { AskToolsCore, askAnswerer, type SdkBinding } from '../core/ask-tools-core.js';
import type { AskSettings, AskToolsCoreOptions, AskUserQuestionOptions } from '../core/ask-tools-options.js';
import type { ToolCall } from '../core/asking.js';
import { listing, type QuestionTool } from '../core/question-tool.js';
import { failure } from '../core/tool-result.js';
import type { Answerer } from '../core/types.js';
import { SERVER_INFO } from '../core/version.js';
import { type ElicitingServer, elicitationAnswerer } from './elicitation.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The part of a v1 `McpServer` the tools are mounted on: its `registerTool`. An `McpServer`
 * is one; so is anything else that registers tools the same way.
 */
export type ToolRegistrar = Pick<McpServer, 'registerTool'>;

/** Options of {@link AskTools}: those of both entries (the answerer, the waits, structured output). */
export interface AskToolsOptions extends AskToolsCoreOptions {}

/** What a v1 handler's `extra` says of the call, for the SDK-neutral waiting. */
function toolCall(extra: Extra): ToolCall {
  const progressToken = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    requestId: extra.requestId,
    sendProgress:
      progressToken === undefined
        ? undefined
        : (progress, message) =>
            extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } }),
  };
}

/** The v1 SDK's side of AskTools: a v1 McpServer, and tools whose calls wait for the answerer's asker. */
function v1Binding(settings: AskSettings): SdkBinding<ToolRegistrar, McpServer> {
  return {
    newServer: () => new McpServer(SERVER_INFO),
    mount<Input, Answer>(server: ToolRegistrar, tool: QuestionTool<Input, Answer>, name: string): void {
      const output = settings.structuredOutput ? { outputSchema: tool.output } : {};
      server.registerTool(name, { ...listing(tool, 'draft-7'), ...output }, async (args, extra) => {
        const parsed = tool.parse(args);
        if (!parsed.success) return parsed.result;
        return (await askAnswerer(settings, tool, parsed.input, toolCall(extra))) ?? failure('unavailable');
      });
    },
  };
}

/**
 * The question tools of one conversation: raider's ask_user and, on request, Claude Code's
 * AskUserQuestion. Each call asks the answerer for a way to reach a person; the outcomes that
 * are not an answer (nobody there, declined, cancelled, timed out, disconnected, the call
 * cancelled, an empty answer to ask_user) are distinct error results telling the model to decide
 * for itself. An AskUserQuestion form sent back with nothing filled in is Claude Code's plain
 * result `The user did not answer the questions.`, not an error. Results are text only unless
 * `structuredOutput` is on (see {@link AskToolsOptions.structuredOutput}).
 */
export class AskTools extends AskToolsCore<ToolRegistrar, McpServer> {
  constructor(options: AskToolsOptions = {}) {
    super(options, v1Binding);
  }
}

/**
 * Mounts Claude Code's AskUserQuestion on `server`, asking the connected client's user through
 * elicitation (or `options.answerer` when given); refuses plainly when nobody can answer.
 * `structuredOutput` is AskTools' option of that name (default false: text only, for Claude Code).
 */
export function registerAskUserQuestion(
  server: ToolRegistrar & ElicitingServer,
  options: AskUserQuestionOptions & { answerer?: Answerer; timeoutMs?: number; structuredOutput?: boolean } = {},
): void {
  const { name, answerer, timeoutMs, structuredOutput } = options;
  const tools = new AskTools({
    answerer: answerer ?? elicitationAnswerer(server, timeoutMs === undefined ? {} : { timeoutMs }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(structuredOutput === undefined ? {} : { structuredOutput }),
  });
  tools.registerAskUserQuestion(server, name === undefined ? {} : { name });
}
