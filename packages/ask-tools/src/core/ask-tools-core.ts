/**
 * AskTools as both entries have it, written once with no SDK: the defaults of its options, the
 * server built once, and the two register methods. Each entry's AskTools extends AskToolsCore with
 * its constructor alone, handing over an SdkBinding, how its SDK makes a server and mounts a
 * question tool: `../v1` holds the call while the answerer asks; `../v2` does the same and adds
 * the client's user, asked with `input_required` (2026 era) or through the SDK's shim (2025 era).
 */

import type { AskSettings, AskToolsCoreOptions, AskUserQuestionOptions } from './ask-tools-options.js';
import { ASK_USER } from './ask-user.js';
import { ASK_USER_QUESTION } from './ask-user-question.js';
import { askWhileWaiting, DEFAULT_PROGRESS_INTERVAL_MS, DEFAULT_TIMEOUT_MS, type ToolCall } from './asking.js';
import { UNAVAILABLE } from './outcomes.js';
import type { QuestionTool } from './question-tool.js';
import type { ToolResult } from './tool-result.js';

/**
 * The part of AskTools each SDK writes itself: how it makes a server and how it mounts one
 * question tool on a `Registrar` (the part of its server the tools are mounted on).
 */
export interface SdkBinding<Registrar, Server extends Registrar> {
  /** A new server of the SDK with nothing mounted yet, for `ask.server`. */
  newServer(): Server;
  /** Registers `tool` on `server` under `name`: checks each call's arguments and answers it. */
  mount<Input, Answer>(server: Registrar, tool: QuestionTool<Input, Answer>, name: string): void;
}

/**
 * The question tools of one conversation, whichever SDK mounts them: raider's ask_user and, on
 * request, Claude Code's AskUserQuestion. The entries' AskTools extend it (see theirs for how a
 * call is answered on each SDK).
 */
export class AskToolsCore<Registrar, Server extends Registrar> {
  /** The text of the refusal when nobody can answer. */
  readonly unavailable: string = UNAVAILABLE;
  /** How long a question may wait for its answer. */
  readonly timeoutMs: number;
  private readonly binding: SdkBinding<Registrar, Server>;
  private built: Server | undefined;

  /** `bind` is given the options with their defaults and returns how the SDK mounts the tools. */
  protected constructor(options: AskToolsCoreOptions, bind: (settings: AskSettings) => SdkBinding<Registrar, Server>) {
    const settings: AskSettings = {
      answerer: options.answerer,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      progressIntervalMs: options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS,
      structuredOutput: options.structuredOutput ?? false,
    };
    this.timeoutMs = settings.timeoutMs;
    this.binding = bind(settings);
  }

  /**
   * A server of the entry's SDK with the tool ask_user, built once. On `./v2` its legacy shim waits
   * `timeoutMs` for a 2025-era client's answer (`inputRequired.roundTimeoutMs`; the SDK's default
   * is 10 minutes).
   */
  get server(): Server {
    if (!this.built) {
      this.built = this.binding.newServer();
      this.register(this.built);
    }
    return this.built;
  }

  /** Mounts ask_user on a server you own. */
  register(server: Registrar): void {
    this.binding.mount(server, ASK_USER, ASK_USER.name);
  }

  /**
   * Mounts Claude Code's AskUserQuestion (1-4 questions, each with a header, 2-4 options of label
   * and description, multiSelect) on a server you own. An answerer that can ask a form (the
   * elicitation answerer, the client's user on `./v2`: one `input_required` round) gets all
   * questions in one form; another is asked question by question. The result is worded as Claude
   * Code 2.1.332 words it (see `answersText`): `Your questions have been answered: "Q"="A", …`
   * when every answer is an offered label, `The user answered: "Q"="A", … Read the answers
   * carefully …` when one was typed, `The user did not answer the questions.` when none was given.
   * Unanswered questions are left out of the entries, as Claude Code does.
   */
  registerAskUserQuestion(server: Registrar, options: AskUserQuestionOptions = {}): void {
    this.binding.mount(server, ASK_USER_QUESTION, options.name ?? ASK_USER_QUESTION.name);
  }
}

/**
 * Puts the call's question to the asker the answerer yields, while the call waits (see
 * `askWhileWaiting`); `undefined` when there is no answerer or it yields no asker.
 */
export function askAnswerer<Input, Answer>(
  settings: AskSettings,
  tool: QuestionTool<Input, Answer>,
  input: Input,
  call: ToolCall,
): Promise<ToolResult> | undefined {
  const asker = settings.answerer?.();
  if (!asker) return undefined;
  const wait = { timeoutMs: settings.timeoutMs, progressIntervalMs: settings.progressIntervalMs };
  return askWhileWaiting(asker, call, wait, async (asker, signal) =>
    tool.result(input, await tool.ask(asker, input, signal), settings.structuredOutput),
  );
}
