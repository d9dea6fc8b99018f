/**
 * The one way a tools/call runs in a conversation: every tool a feature registers goes through
 * `ToolPipeline.register`, and every call of it passes the ordered steps of `CALL_STEPS` over one
 * typed context (`CallContext`: the tool, the era, the server, the agent, the list, the request,
 * its deadline and progress), then the feature's handler, which gets that context as a parameter.
 * The steps a tool takes are chosen once, when it is registered (a tool that declares no progress
 * skips that step), so a call pays only for its own.
 *
 * The one AsyncLocalStorage of the server is here (`currentCall`): the context crosses code that is
 * not ours, where no parameter can carry it: @raider/todo-tools' TaskTools calls the task store's
 * transaction (the wake-ups read the call's agent there), and @raider/ask-tools' AskTools calls
 * the question tool's answerer (which reads the call's agent, server and envelope).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallToolResult, McpServer, RegisteredTool, ServerContext } from '@modelcontextprotocol/server';
import { claudeName, raiderInput } from '@raider/tool-names';
import type { AnswerWatch } from '../transport/answer-watch.js';
import type { Era, Names } from '../types.js';
import { PROGRESS_EVERY_MS, withProgress } from './progress.js';
import { callClient, type WaitDeadlineSettings, waitDeadlineMs } from './wait-deadline.js';

/** One tools/call as the steps and the handler see it. */
export interface CallContext {
  /** The tool's own name, as its feature registered it (`task_update`). */
  readonly tool: string;
  /** The era of the server serving the call. */
  readonly era: Era;
  /** The server serving the call (its client's capabilities and clientInfo, for a 2025-era call). */
  readonly server: McpServer;
  /** The SDK's context of the call: its id, signal, progress token, envelope, notify. */
  readonly request: ServerContext;
  /** The agent the server serves; undefined when the messaging tools are not mounted on it. */
  readonly agent: string | undefined;
  /** The list the conversation works on, if it works on a shared or durable one. */
  readonly listId: string | undefined;
  /** Word of the call's answer being written (stdio's tap, an HTTP response); undefined when embedded. */
  readonly answers: AnswerWatch | undefined;
  /** How often the call sends progress while it runs, in ms (for a tool that sends progress). */
  readonly progressEveryMs: number;
  /** How long a waiting call may wait before it answers anyway (issue 28), in ms: chosen from its client. */
  readonly deadlineMs: number;
  /** The arguments, as the handler gets them (raider's, after the claude-arguments step). */
  args: Record<string, unknown>;
  /** Holds the call's answer until `work` (begun by the call, e.g. the wake-ups its write caused) settles. */
  answerAfter(work: Promise<unknown>): void;
  /** Resolves once the work handed to `answerAfter` settled (the `work-done` step waits for it). */
  workDone(): Promise<void>;
}

/** A tool as a feature registers it. */
export interface PipelineTool {
  /** The tool's own (raider) name. */
  name: string;
  /** Its config, as the SDK's registerTool takes it. */
  config: object;
  /** Answers a call, with the call's context. */
  handler(args: Record<string, unknown>, call: CallContext): Promise<CallToolResult> | CallToolResult;
  /** Sends progress while a call runs long (the family's tools, wait_for_messages). Default false. */
  progress?: boolean;
  /**
   * Under `--names claude`, registered under Claude Code's name, its arguments made raider's before
   * the handler sees them (the family's tools). Default false: a tool that names itself.
   */
  claudeNames?: boolean;
  /**
   * A person's tool, not the server's agent's (the board app's, which its user works): its calls
   * run with no current call, so a change it makes to the list is nobody's (`Someone changed your
   * task …`), and it answers without waiting for the wake-ups. Default false.
   */
  person?: boolean;
}

/** The rest of a call after a step: the next steps, then the handler. */
type Next = () => Promise<CallToolResult>;

/** One step of a call: it runs around the rest (`next`), and may change the context first. */
export interface CallStep {
  /** The step's name, as the README's architecture section lists it. */
  readonly name: string;
  /** Whether a tool takes this step, decided once when it is registered. */
  takes(tool: PipelineTool, server: ServerSettings): boolean;
  run(call: CallContext, next: Next): Promise<CallToolResult>;
}

/** Where the call's context is while code that is not ours runs (see the module's comment). */
const activeCall = new AsyncLocalStorage<CallContext>();

/** The context of the call running now, read where it crossed code that is not ours; undefined outside a call. */
export function currentCall(): CallContext | undefined {
  return activeCall.getStore();
}

/**
 * The steps of every call, in order. Each is skipped by a tool it does not apply to.
 * - `progress`: sends `notifications/progress` every `progressEveryMs` while the call runs, when
 *   the client gave a progress token (a lock another process holds, a slow hook, a wait).
 * - `claude-arguments`: under `--names claude`, Claude Code's arguments made raider's
 *   (`raiderInput` of @raider/tool-names).
 * - `work-done`: the call answers once the work it began settled (`answerAfter`: the wake-ups a
 *   task's change sends are in their inboxes before the change is answered).
 * - `current-call`: the rest runs with the context in `currentCall()`, for the code that is not
 *   ours; a person's tool (the board app's) skips it, so what it changes is no agent's doing.
 */
export const CALL_STEPS: readonly CallStep[] = [
  {
    name: 'progress',
    takes: (tool) => tool.progress === true,
    run: (call, next) => withProgress(next, call.progressEveryMs)(undefined, call.request),
  },
  {
    name: 'claude-arguments',
    takes: (tool, server) => tool.claudeNames === true && server.names === 'claude',
    run: (call, next) => {
      call.args = raiderInput(call.tool, call.args);
      return next();
    },
  },
  {
    name: 'work-done',
    takes: () => true,
    run: async (call, next) => {
      const result = await next();
      await call.workDone();
      return result;
    },
  },
  {
    name: 'current-call',
    takes: (tool) => tool.person !== true,
    run: (call, next) => activeCall.run(call, next),
  },
];

// raider's own tools, which Claude Code does not have, named in its style.
const RAIDER_ONLY: Readonly<Record<string, string>> = { task_claim: 'TaskClaim' };

/** What a server's calls are made with: the conversation's settings, and who the server serves. */
export interface ServerSettings {
  readonly era: Era;
  readonly names: Names;
  readonly agent: string | undefined;
  readonly listId: string | undefined;
  readonly answers: AnswerWatch | undefined;
  readonly progressEveryMs: number | undefined;
  /** How a waiting call's deadline is chosen (`--wait-deadline`, the transport). */
  readonly deadline: WaitDeadlineSettings;
}

/** The context of one call of `tool` on `server` (its deadline worked out only when read). */
class ToolCall implements CallContext {
  private deadline: number | undefined;
  private readonly work: Promise<unknown>[] = [];

  constructor(
    readonly tool: string,
    private readonly settings: ServerSettings,
    readonly server: McpServer,
    readonly request: ServerContext,
    public args: Record<string, unknown>,
  ) {}

  get era(): Era {
    return this.settings.era;
  }
  get agent(): string | undefined {
    return this.settings.agent;
  }
  get listId(): string | undefined {
    return this.settings.listId;
  }
  get answers(): AnswerWatch | undefined {
    return this.settings.answers;
  }
  get progressEveryMs(): number {
    return this.settings.progressEveryMs ?? PROGRESS_EVERY_MS;
  }
  get deadlineMs(): number {
    this.deadline ??= waitDeadlineMs(this.settings.deadline, callClient(this.request, this.server.server));
    return this.deadline;
  }

  answerAfter(work: Promise<unknown>): void {
    this.work.push(work);
  }

  async workDone(): Promise<void> {
    while (this.work.length > 0) await Promise.allSettled(this.work.splice(0));
  }
}

/** Runs `steps` from `at` around `call`, then the handler. */
function runSteps(
  steps: readonly CallStep[],
  at: number,
  call: CallContext,
  tool: PipelineTool,
): Promise<CallToolResult> {
  const step = steps[at];
  if (!step) return Promise.resolve(tool.handler(call.args, call));
  return step.run(call, () => runSteps(steps, at + 1, call, tool));
}

/** Where one server's tools are registered: each call of each passes the steps it takes, then its handler. */
export class ToolPipeline {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(
    private readonly server: McpServer,
    private readonly settings: ServerSettings,
  ) {}

  /** Registers `tool` on the server (under Claude Code's name when it takes Claude names); returns the SDK's tool. */
  register(tool: PipelineTool): RegisteredTool {
    const { server, settings } = this;
    const steps = CALL_STEPS.filter((step) => step.takes(tool, settings));
    const shown = steps.some((step) => step.name === 'claude-arguments')
      ? (claudeName(tool.name) ?? RAIDER_ONLY[tool.name] ?? tool.name)
      : tool.name;
    const registered = server.registerTool(
      shown,
      tool.config as never,
      ((args: unknown, request: ServerContext) =>
        runSteps(
          steps,
          0,
          new ToolCall(tool.name, settings, server, request, args as Record<string, unknown>),
          tool,
        )) as never,
    );
    this.tools.set(shown, registered);
    return registered;
  }

  /** The tool registered here under `name` (the name clients see), if any. */
  registered(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }
}
