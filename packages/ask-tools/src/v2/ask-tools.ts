/**
 * AskTools on the MCP TypeScript SDK v2 (`@modelcontextprotocol/server`): the same ask_user and
 * AskUserQuestion as the `.` entry (SDK-neutral, `../core`), mounted on a v2 `McpServer`. The
 * client's user is asked in the style of protocol revision 2026-07-28 (`input_required`, the
 * answer read on the retry); the SDK's legacy shim asks a 2025-era client with a real
 * `elicitation/create` from the same code. An application's own answerer (a terminal, a web
 * board) is asked first and answers while the call waits, as on v1.
 */
import {
  type CallToolResult,
  type InputRequiredResult,
  McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AskToolsCore, askAnswerer, type SdkBinding } from '../core/ask-tools-core.js';
import type { AskSettings, AskToolsCoreOptions, AskUserQuestionOptions } from '../core/ask-tools-options.js';
import { keepAlive, type ToolCall, thrownOutcome } from '../core/asking.js';
import { acceptedForm } from '../core/elicitation-form.js';
import { duration } from '../core/outcomes.js';
import { listing, type QuestionTool } from '../core/question-tool.js';
import { failure, type ToolResult } from '../core/tool-result.js';
import type { Answerer } from '../core/types.js';
import { SERVER_INFO } from '../core/version.js';
import {
  askClient,
  type ClientAnswer,
  clientAnswer,
  clientCanAnswerForms,
  isModernRequest,
  type QuestionState,
  questionDigest,
} from './client-question.js';

/**
 * The part of a v2 `McpServer` the tools are mounted on: its `registerTool`, and its low-level
 * `server`'s `getClientCapabilities` (what a 2025-era client declared at `initialize`, to
 * refuse plainly one that cannot answer a form). An `McpServer` is one.
 */
export type ToolRegistrar = Pick<McpServer, 'registerTool'> & {
  readonly server: Pick<McpServer['server'], 'getClientCapabilities'>;
};

/** Options of {@link AskTools}: those of the `.` entry, and the client's user (`elicitation`, `requestState`). */
export interface AskToolsOptions extends AskToolsCoreOptions {
  /**
   * Your own way to reach a person (a terminal prompt, a web board), asked first on every call;
   * an Asker it yields answers while the call waits, exactly as on the `.` entry. When there is
   * none, or it yields none, the client's user is asked (see `elicitation`).
   */
  answerer?: Answerer;
  /**
   * Ask the client's user through elicitation when the answerer yields no asker; default true.
   * `false` leaves the answerer alone: without one every call is refused.
   */
  elicitation?: boolean;
  /**
   * How long a question may wait for its answer; default 30 minutes. An answer that comes later
   * is the timed-out error result (the retry of a 2026-era client, or the shim's re-entry).
   */
  timeoutMs?: number;
  /**
   * Sign what a question carries across the client in `requestState` (`createRequestStateCodec`
   * from `@modelcontextprotocol/server`): when it was asked and which call asked it. The retry's
   * answer then counts only for the question it answers, and its lateness cannot be forged.
   * Every server that may get the retry needs the same key (replicas behind a balancer); set the
   * codec's `verify` as the server's `requestState.verify` too, or AskTools verifies the state
   * itself. Without it no `requestState` is sent (the time rides on the question's key).
   */
  requestState?: RequestStateCodec<QuestionState>;
}

/** What a v2 handler's `ctx` says of the call, for the SDK-neutral waiting. */
function toolCall(ctx: ServerContext): ToolCall {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return {
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    sendProgress:
      progressToken === undefined
        ? undefined
        : (progress, message) =>
            ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, message } }),
  };
}

/**
 * The v2 SDK's side of AskTools: a v2 McpServer whose shim waits `timeoutMs`, and tools whose
 * calls are answered, in this order, by the answer a retry carries, the answerer's asker while
 * the call waits, the client's user (`input_required`, or `elicitation/create` through the shim),
 * else the plain refusal.
 */
class V2Binding implements SdkBinding<ToolRegistrar, McpServer> {
  private readonly elicitation: boolean;
  private readonly requestState: RequestStateCodec<QuestionState> | undefined;
  /** The progress kept alive while the shim asks a 2025-era client, by the call's signal (the same on every round). */
  private readonly waiting = new WeakMap<AbortSignal, () => void>();

  constructor(
    private readonly settings: AskSettings,
    options: AskToolsOptions,
  ) {
    this.elicitation = options.elicitation ?? true;
    this.requestState = options.requestState;
  }

  newServer(): McpServer {
    return new McpServer(SERVER_INFO, {
      inputRequired: { roundTimeoutMs: this.settings.timeoutMs },
      ...(this.requestState ? { requestState: { verify: this.requestState.verify } } : {}),
    });
  }

  mount<Input, Answer>(server: ToolRegistrar, tool: QuestionTool<Input, Answer>, name: string): void {
    const output = this.settings.structuredOutput ? { outputSchema: z.object(tool.output) } : {};
    server.registerTool(name, { ...listing(tool, 'draft-2020-12'), ...output }, (args, ctx) =>
      this.call(server, tool, name, args, ctx),
    );
  }

  /** One call (or one round of it): the retry's answer, the answerer, the client, or the refusal. */
  private async call<Input, Answer>(
    server: ToolRegistrar,
    tool: QuestionTool<Input, Answer>,
    name: string,
    args: unknown,
    ctx: ServerContext,
  ): Promise<CallToolResult | InputRequiredResult> {
    const parsed = tool.parse(args);
    if (!parsed.success) return parsed.result;
    const answer = clientAnswer(ctx);
    if (answer) return this.retried(tool, name, args, parsed.input, answer, ctx);
    const byAnswerer = askAnswerer(this.settings, tool, parsed.input, toolCall(ctx));
    if (byAnswerer) return byAnswerer;
    if (!this.elicitation || !clientCanAnswerForms(server.server, ctx)) return failure('unavailable');
    if (!isModernRequest(ctx)) {
      // The shim holds this call open while the client asks, but sends no progress of its own:
      // keep the client's idle timer from cutting it, as the `.` entry does while it waits.
      const stop = keepAlive(toolCall(ctx).sendProgress, this.settings.progressIntervalMs, {
        signal: ctx.mcpReq.signal,
        untilMs: this.settings.timeoutMs,
      });
      this.waiting.set(ctx.mcpReq.signal, stop);
    }
    const askedAt = Date.now();
    const state =
      this.requestState && (await this.requestState.mint({ askedAt, asked: questionDigest(name, args) }, ctx));
    return askClient(tool.form(parsed.input), askedAt, state);
  }

  /** A retry carrying the client's answer: its state checked when signed, then its result. */
  private async retried<Input, Answer>(
    tool: QuestionTool<Input, Answer>,
    name: string,
    args: unknown,
    input: Input,
    answer: ClientAnswer,
    ctx: ServerContext,
  ): Promise<ToolResult> {
    this.waiting.get(ctx.mcpReq.signal)?.();
    this.waiting.delete(ctx.mcpReq.signal);
    if (!this.requestState) return this.answered(tool, input, answer);
    const state = await this.questionState(ctx);
    if (!state) return failure('failed', "the client's answer came back without the question's signed state");
    if (state.asked !== questionDigest(name, args)) {
      return failure('failed', 'the client answered another question than this call asked');
    }
    return this.answered(tool, input, { ...answer, askedAt: state.askedAt });
  }

  /**
   * The signed state the retry carries back: verified by the server's `requestState.verify`
   * (then the SDK hands the payload over), else here; `undefined` when there is none or it does
   * not verify.
   */
  private async questionState(ctx: ServerContext): Promise<QuestionState | undefined> {
    const state = ctx.mcpReq.requestState<QuestionState | string>();
    if (state === undefined) return undefined;
    if (typeof state !== 'string') return state;
    try {
      return await (this.requestState as RequestStateCodec<QuestionState>).verify(state, ctx);
    } catch {
      return undefined;
    }
  }

  /** The result of the answer a retry carries; one that comes after `timeoutMs` is the timed-out result. */
  private answered<Input, Answer>(tool: QuestionTool<Input, Answer>, input: Input, answer: ClientAnswer): ToolResult {
    const { timeoutMs, structuredOutput } = this.settings;
    if (answer.askedAt !== undefined && Date.now() - answer.askedAt > timeoutMs) {
      return failure('timeout', duration(timeoutMs));
    }
    if (answer.kind === 'unreadable')
      return failure('failed', 'the client answered with something other than the form');
    try {
      return tool.result(input, tool.read(input, acceptedForm(answer.response)), structuredOutput);
    } catch (error) {
      return thrownOutcome(error, timeoutMs);
    }
  }
}

/**
 * ask_user and, on request, Claude Code's AskUserQuestion on a v2 `McpServer`, with the answers,
 * refusals and outcomes of the `.` entry. A call is answered, in this order, by: the answer a
 * retry carries; the answerer's asker, while the call waits; the client's user, asked with the
 * question's form (`input_required` toward a 2026-era client, `elicitation/create` through the
 * SDK's shim toward a 2025-era one); else the plain refusal.
 */
export class AskTools extends AskToolsCore<ToolRegistrar, McpServer> {
  constructor(options: AskToolsOptions = {}) {
    super(options, (settings) => new V2Binding(settings, options));
  }
}

/**
 * Mounts Claude Code's AskUserQuestion on a v2 `server`, asking the client's user (or
 * `options.answerer` first when given); refuses plainly when nobody can answer.
 */
export function registerAskUserQuestion(
  server: ToolRegistrar,
  options: AskUserQuestionOptions & Omit<AskToolsOptions, 'progressIntervalMs'> = {},
): void {
  const { name, ...tools } = options;
  new AskTools(tools).registerAskUserQuestion(server, name === undefined ? {} : { name });
}
