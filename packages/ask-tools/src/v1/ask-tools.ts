/**
 * AskTools on the MCP TypeScript SDK v1 (`@modelcontextprotocol/sdk`): raider's ask_user tool
 * and Claude Code's AskUserQuestion, as MCP tools. The tools ask nobody themselves: the
 * answerer yields the way to put a question to a person, asked on every call; without one they
 * refuse plainly, so a run nobody watches never blocks. The tools themselves are SDK-neutral
 * (`../core`); this adapter mounts them and holds the call while the person answers.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { advertised } from '@raider/kit/schemas';
import { ASK_USER } from '../core/ask-user.js';
import { ASK_USER_QUESTION } from '../core/ask-user-question.js';
import { askWhileWaiting, DEFAULT_PROGRESS_INTERVAL_MS, DEFAULT_TIMEOUT_MS, type ToolCall } from '../core/asking.js';
import { UNAVAILABLE } from '../core/outcomes.js';
import { ANNOTATIONS, type QuestionTool } from '../core/question-tool.js';
import { failure } from '../core/tool-result.js';
import type { Answerer } from '../core/types.js';
import { VERSION } from '../core/version.js';
import { type ElicitingServer, elicitationAnswerer } from './elicitation.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The part of a v1 `McpServer` the tools are mounted on: its `registerTool`. An `McpServer`
 * is one; so is anything else that registers tools the same way.
 */
export type ToolRegistrar = Pick<McpServer, 'registerTool'>;

/** Options of {@link AskTools}. */
export interface AskToolsOptions {
  /** Asked on every call for the way to put the question to a person; without it every call is refused. */
  answerer?: Answerer;
  /** How long a question may wait for its answer; default 30 minutes. */
  timeoutMs?: number;
  /** How often to send progress while waiting, when the client gave a progress token; default 15 s. */
  progressIntervalMs?: number;
  /**
   * Declare output schemas and return `structuredContent` beside the text; default false. Off by
   * default because Claude Code shows the model the JSON of `structuredContent` instead of the
   * text whenever a result carries it, and the MCP spec requires structured results once an output
   * schema is declared: with it on, a model in Claude Code reads `{"answer":…}` in place of the
   * answer's sentence. Turn it on for clients that read structured results.
   */
  structuredOutput?: boolean;
}

/** Options of `registerAskUserQuestion`. */
export interface AskUserQuestionOptions {
  /** The tool's name; default `AskUserQuestion`. */
  name?: string;
}

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

/**
 * The question tools of one conversation: raider's ask_user and, on request, Claude Code's
 * AskUserQuestion. Each call asks the answerer for a way to reach a person; the outcomes that
 * are not an answer (nobody there, declined, cancelled, timed out, disconnected, the call
 * cancelled, an empty answer to ask_user) are distinct error results telling the model to decide
 * for itself. An AskUserQuestion form sent back with nothing filled in is Claude Code's plain
 * result `The user did not answer the questions.`, not an error. Results are text only unless
 * `structuredOutput` is on (see {@link AskToolsOptions.structuredOutput}).
 */
export class AskTools {
  /** The text of the refusal when nobody can answer. */
  readonly unavailable: string = UNAVAILABLE;
  /** How long a question may wait for its answer. */
  readonly timeoutMs: number;
  private readonly answerer: Answerer | undefined;
  private readonly progressIntervalMs: number;
  private readonly structuredOutput: boolean;
  private built: McpServer | undefined;

  constructor(options: AskToolsOptions = {}) {
    this.answerer = options.answerer;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.progressIntervalMs = options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
    this.structuredOutput = options.structuredOutput ?? false;
  }

  /** An McpServer with the tool ask_user, built once. */
  get server(): McpServer {
    if (!this.built) {
      this.built = new McpServer({ name: 'raider-ask', version: VERSION });
      this.register(this.built);
    }
    return this.built;
  }

  /** Mounts ask_user on a server you own. */
  register(server: ToolRegistrar): void {
    this.mount(server, ASK_USER, ASK_USER.name);
  }

  /**
   * Mounts Claude Code's AskUserQuestion (1-4 questions, each with a header, 2-4 options of label
   * and description, multiSelect) on a server you own. An answerer that can ask a form (the
   * elicitation answerer) gets all questions in one form; another is asked question by question.
   * The result is worded as Claude Code 2.1.332 words it (see `answersText`): `Your questions have
   * been answered: "Q"="A", …` when every answer is an offered label, `The user answered: "Q"="A", …
   * Read the answers carefully …` when one was typed, `The user did not answer the questions.` when
   * none was given. Unanswered questions are left out of the entries, as Claude Code does.
   */
  registerAskUserQuestion(server: ToolRegistrar, options: AskUserQuestionOptions = {}): void {
    this.mount(server, ASK_USER_QUESTION, options.name ?? ASK_USER_QUESTION.name);
  }

  /** Registers one question tool: checks its arguments, finds an asker (or refuses) and waits for the answer. */
  private mount<Input, Answer>(server: ToolRegistrar, tool: QuestionTool<Input, Answer>, name: string): void {
    server.registerTool(
      name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: advertised(tool.schema, 'draft-7'),
        ...(this.structuredOutput ? { outputSchema: tool.output } : {}),
        annotations: ANNOTATIONS,
      },
      async (args, extra) => {
        const parsed = tool.parse(args);
        if (!parsed.success) return parsed.result;
        const asker = this.answerer?.();
        if (!asker) return failure('unavailable');
        const wait = { timeoutMs: this.timeoutMs, progressIntervalMs: this.progressIntervalMs };
        return askWhileWaiting(asker, toolCall(extra), wait, async (asker, signal) =>
          tool.result(parsed.input, await tool.ask(asker, parsed.input, signal), this.structuredOutput),
        );
      },
    );
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
