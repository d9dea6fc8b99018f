/**
 * The question tool of a conversation (ask_user, or AskUserQuestion under Claude names), asked
 * per era:
 * - 2025 era: through the client's elicitation (a real `elicitation/create` while the call
 *   waits) and, when there is one, a second way to reach a person (the live board): both at
 *   once, the first outcome wins, as before SDK v2.
 * - 2026 era: a client that can answer a form is asked with `input_required` and answers on its
 *   retry (it holds the question: the board cannot answer it); one that cannot is asked on the
 *   board while the call waits, when there is one.
 * Every question the server waits on is an `ask` entry of the registry whose stop withdraws it.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type Answerer, AskError, type Asker, AskTools, elicitationAnswerer } from '@raider/ask-tools/v2';
import { received } from '@raider/kit/received';
import { oneLine } from '@raider/kit/shown-text';
import type { TaskRegistry } from '@raider/tasks-registry';
import { type CallContext, currentCall, type PipelineTool } from '../../conversation/call-pipeline.js';
import type { Logger } from '../../log.js';
import type { Names } from '../../types.js';
import {
  expiredText,
  lostText,
  notYoursText,
  type OpenQuestion,
  type QuestionDesks,
  type QuestionOpener,
  stillOpenText,
} from './open-questions.js';
import type { StateCodecs } from './question-state.js';
import { RESUME_ID, resumable } from './resumable-schema.js';

/** What the question tool is mounted with. */
export interface QuestionOptions {
  names: Names;
  askTimeoutMs: number;
  /** Results carry structuredContent and the tools declare output schemas (default false). */
  structuredOutput?: boolean;
  fallbackAnswerer: Answerer | undefined;
  /** The key that signs a 2026-era question's state (shared by replicas); default: one made per process. */
  stateSecret?: string | undefined;
  /** How long a question stays open with nobody answering, in ms (`--question-expiry`). */
  expiryMs: number;
  /** The list the conversation works on: its conversations share one desk of open questions. */
  listId?: string | undefined;
  /** The server's desks of open questions, one per list (its runtime's). */
  desks: QuestionDesks;
  /** The server's codecs of 2026-era question state (its runtime's). */
  codecs: StateCodecs;
  /** How often a waiting call sends progress, in ms (`--progress-interval`). */
  progressEveryMs?: number | undefined;
  /** An answer came while the asking agent waited on nothing: tell it (its inbox). */
  answeredWhileAway?: (question: OpenQuestion) => void;
  log: Logger;
}

/** The question tool of one conversation, mounted on each of its servers. */
export interface Questions {
  /**
   * The question tool's tools for a server of `era`, as AskTools registers them, ready for a
   * server's call pipeline: ask_user with its resume and its deadline around AskTools' handler. A
   * 2025-era server's are its own (`server`: the client's elicitation is asked through it); a
   * 2026-era server's are the same for every server (each call reads its own server and envelope).
   */
  tools(era: 'legacy' | 'modern', server?: McpServer): PipelineTool[];
  /** Withdraws every open question, with `reason`. */
  endQuestions(reason: string): void;
  /** How many questions this conversation asked are still open (they keep its session or list alive). */
  openQuestions(): number;
}

/** One ask_user call as the desk sees it: its deadline, the question it waits on, the one it resumes. */
interface DeskCall {
  deadline: AbortSignal;
  resume: OpenQuestion | undefined;
  question: OpenQuestion | undefined;
}

/** A handler as AskTools registers it. */
type AskHandler = (args: unknown, ctx: ServerContext) => Promise<CallToolResult>;

/** The reason a call's wait ends at its deadline (never shown: the call answers stillOpenText). */
const DEADLINE = 'the wait reached its deadline';

/** Whether the client of a 2026-era request declared form elicitation in the request's envelope. */
function modernClientAnswersForms(ctx: ServerContext | undefined): boolean {
  // The envelope's keys are hidden from the SDK's public types (RequestMetaEnvelope is `{}`).
  const envelope = ctx?.mcpReq.envelope as Record<string, unknown> | undefined;
  const elicitation = (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)?.elicitation;
  return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);
}

/** The text result of a tool call. */
/**
 * The line that tells the asking agent who answered, when a board token named the person (a
 * server with a table of agents, issue 38): a second text block, so the answer's own text stays
 * exactly ask_user's.
 */
export const answeredByText = (person: string): string =>
  `Answered by ${JSON.stringify(oneLine(person))} at raider/board.`;

/** `result` with the answeredByText block added when `entry` was answered by a named person. */
function withAnsweredBy(result: CallToolResult, entry: OpenQuestion): CallToolResult {
  if (result.isError || entry.state !== 'answered' || entry.answeredBy === undefined) return result;
  return { ...result, content: [...result.content, { type: 'text', text: answeredByText(entry.answeredBy) }] };
}

const textResult = (text: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...(isError ? { isError: true } : {}),
});

/** A resume's argument problem, or the id it resumes. */
function resumeOf(args: Record<string, unknown>): { id: string } | { problem: string } {
  const other = Object.keys(args).find((key) => key !== 'resume');
  if (other !== undefined) {
    return { problem: `unknown argument "${other.slice(0, 40)}" beside resume: expected {"resume": "ask_3"} alone` };
  }
  const id = args.resume;
  if (typeof id !== 'string' || !RESUME_ID.test(id)) {
    return { problem: `resume: expected the id of an open question such as "ask_3", received ${received(id)}` };
  }
  return { id };
}

/** Makes the question tool of a conversation. */
export function createQuestions(registry: TaskRegistry, options: QuestionOptions): Questions {
  return new ConversationQuestions(registry, options);
}

/** What a resume asks for: the open question it waits on, or the answer of the call at once. */
type Resumed = { resume: OpenQuestion; args: Record<string, unknown> } | { answer: CallToolResult };

/** The question tool of one conversation: its desk of open questions, and ask_user on each server. */
class ConversationQuestions implements Questions {
  private readonly desk: ReturnType<QuestionDesks['deskOf']>;
  /**
   * The ask_user calls waiting on the desk now, by their context: AskTools (not our code) calls
   * the answerer, which finds its call's deadline and question here through `currentCall()`.
   */
  private readonly deskCalls = new WeakMap<CallContext, DeskCall>();

  constructor(
    private readonly registry: TaskRegistry,
    private readonly options: QuestionOptions,
  ) {
    this.desk = options.desks.deskOf(options.listId, options.expiryMs);
  }

  private opener(agent: string | undefined): QuestionOpener {
    return {
      agent,
      registry: this.registry,
      pages: () => this.options.fallbackAnswerer?.(),
      answeredWhileAway: (question) => this.options.answeredWhileAway?.(question),
      log: this.options.log,
    };
  }

  /** Runs an ask tracked in the registry while it waits (stopped by endQuestions). */
  private async track<T>(description: string, signal: AbortSignal, run: (signal: AbortSignal) => Promise<T>) {
    const { registry, desk } = this;
    const id = registry.nextId('ask');
    const controller = new AbortController();
    const promise = run(AbortSignal.any([signal, controller.signal]));
    registry.add({
      id,
      kind: 'ask',
      recipient: 'main',
      description,
      stop: () => controller.abort(new AskError('aborted', desk.stopReason)),
      promise,
    });
    this.options.log.debug(`${id} asked: ${description}`);
    try {
      const answer = await promise;
      registry.finish(id, 'completed');
      return answer;
    } catch (error) {
      registry.finish(id, controller.signal.aborted || signal.aborted ? 'killed' : 'failed');
      throw controller.signal.aborted ? controller.signal.reason : error;
    }
  }

  /**
   * Puts `entry` to the client's user as a form (2025 era), once at a time: the form outlives the
   * call's deadline (a person may submit it after the call answered "still open"), and its answer,
   * decline or dismissal settles the question; it is withdrawn when the question settles another
   * way. A form that fails (its own timeout, a client gone) leaves the question open for a resume
   * to ask again.
   */
  private putForm(entry: OpenQuestion, elicit: Asker): void {
    const { desk } = this;
    entry.formPending = true;
    elicit(entry.question, entry.options, entry.settledSignal).then(
      (answer) => desk.answer(entry, answer),
      (error: unknown) => {
        entry.formPending = false;
        const acted = AskError.isInstance(error) && (error.code === 'declined' || error.code === 'cancelled');
        if (acted) desk.end(entry, error);
      },
    );
  }

  /**
   * ask_user's asker: the call's question is an open question of the list's desk (a page asks it,
   * the client's form asks it), waited on until the call's deadline. AskUserQuestion's forms go
   * to the elicitation alone, tracked while the call waits.
   */
  /** The desk's view of the ask_user call running now (none for AskUserQuestion), and the call's agent. */
  private deskCall(): { call: DeskCall | undefined; agent: string | undefined } {
    const active = currentCall();
    return { call: active && this.deskCalls.get(active), agent: active?.agent };
  }

  private deskAsker(elicit: Asker | undefined): Asker | undefined {
    const { desk } = this;
    const pages = this.options.fallbackAnswerer?.();
    // A resume waits on its open question even when no page is open now (one may open later).
    if (!elicit && !pages && !this.deskCall().call?.resume) return undefined;
    const ask: Asker = (question, choices, signal) => {
      const { call, agent } = this.deskCall();
      // AskUserQuestion asking one question at a time: both ways at once, tracked while the call waits.
      if (!call) return this.track(question, signal, (s) => (firstOf(elicit, pages) as Asker)(question, choices, s));
      const entry = call.resume ?? desk.open(question, choices, this.opener(agent));
      call.question = entry;
      desk.offer(entry);
      if (elicit && entry.state === 'open' && !entry.formPending) this.putForm(entry, elicit);
      return desk.wait(entry, AbortSignal.any([signal, call.deadline]));
    };
    const form = elicit?.form;
    if (form) {
      ask.form = (questions, signal) =>
        this.track(questions.map((q) => q.question).join(' / '), signal, (s) => form(questions, s));
    }
    return ask;
  }

  /** The open question `{ resume }` names, with the arguments to ask it again; or the call's answer. */
  private resumed(input: Record<string, unknown>, caller: string | undefined): Resumed {
    const { desk } = this;
    const asked = resumeOf(input);
    if ('problem' in asked) return { answer: textResult(`Error: ${asked.problem}`, true) };
    const resume = desk.get(asked.id);
    if (!resume) return { answer: textResult(`Error: ${lostText(asked.id)}`, true) };
    if (resume.opener.agent !== caller) {
      return { answer: textResult(`Error: ${notYoursText(resume.id, resume.opener.agent, caller)}`, true) };
    }
    if (resume.state === 'expired') return { answer: textResult(expiredText(resume.id, desk.expiryMs)) };
    return {
      resume,
      args: { question: resume.question, ...(resume.options.length ? { options: resume.options } : {}) },
    };
  }

  /**
   * ask_user's handler around AskTools' own: a call waits until its deadline, then answers that the
   * question is still open; `{ resume }` waits on an open question again (or reads its answer).
   */
  private withDeadline(handler: AskHandler): PipelineTool['handler'] {
    const { desk } = this;
    return async (given, context): Promise<CallToolResult> => {
      let args: unknown = given;
      const input = (args ?? {}) as Record<string, unknown>;
      let resume: OpenQuestion | undefined;
      if (typeof args === 'object' && args !== null && 'resume' in input) {
        const resumed = this.resumed(input, context.agent);
        if ('answer' in resumed) return resumed.answer;
        ({ resume, args } = resumed);
      }
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new AskError('aborted', DEADLINE)), context.deadlineMs);
      const call: DeskCall = { deadline: deadline.signal, resume, question: undefined };
      this.deskCalls.set(context, call);
      try {
        const result = await handler(args, context.request);
        const entry = call.question;
        if (!entry) return result;
        if (entry.state === 'expired') return textResult(expiredText(entry.id, desk.expiryMs));
        // Cut by its deadline, the ask timeout, or the call's cancellation (a host cutting a call
        // looks the same): the question stays open for a resume until it expires.
        if (entry.state === 'open') return textResult(stillOpenText(entry.id));
        return withAnsweredBy(result, entry);
      } finally {
        clearTimeout(timer);
        this.deskCalls.delete(context);
      }
    };
  }

  /** AskTools for a server of `era` (a 2025-era one asks its client through `server`). */
  private askTools(server: McpServer | undefined, era: 'legacy' | 'modern'): AskTools {
    const { options } = this;
    const presentation = options.structuredOutput ? { structuredOutput: true } : {};
    const waiting = { progressIntervalMs: options.progressEveryMs };
    if (era === 'legacy') {
      if (!server) throw new TypeError('a 2025-era question tool asks its client through its own server');
      // The client's elicitation and the board, raced on the call; never the SDK's shim.
      const elicit = elicitationAnswerer(server, { timeoutMs: options.askTimeoutMs });
      return new AskTools({
        answerer: () => this.deskAsker(elicit()),
        elicitation: false,
        timeoutMs: options.askTimeoutMs,
        ...waiting,
        ...presentation,
      });
    }
    // The client asked in-band when it can answer a form; else the board, while the call waits.
    return new AskTools({
      answerer: () => (modernClientAnswersForms(currentCall()?.request) ? undefined : this.deskAsker(undefined)),
      // What the question carries across the client, signed (AskTools verifies it on the retry).
      requestState: options.codecs.codec(options.stateSecret, options.askTimeoutMs),
      timeoutMs: options.askTimeoutMs,
      ...waiting,
      ...presentation,
    });
  }

  tools(era: 'legacy' | 'modern', server?: McpServer): PipelineTool[] {
    // A 2026-era AskTools asks no server: the client's capabilities, when its envelope has none,
    // are read of the server serving the call.
    const sdk = server?.server ?? {
      getClientCapabilities: () => currentCall()?.server.server.getClientCapabilities(),
    };
    const ask = this.askTools(server, era);
    const tools: PipelineTool[] = [];
    // What AskTools registers, recorded: ask_user with its resume listed and its deadline around it.
    const registrar = {
      server: sdk,
      registerTool: ((name: string, config: { inputSchema?: unknown; description?: string }, handler: AskHandler) => {
        if (name === 'ask_user') tools.push({ name, config: resumable(config), handler: this.withDeadline(handler) });
        else tools.push({ name, config, handler: (args, call) => handler(args, call.request) });
      }) as unknown as McpServer['registerTool'],
    };
    if (this.options.names === 'claude') ask.registerAskUserQuestion(registrar);
    else ask.register(registrar);
    return tools;
  }

  openQuestions(): number {
    return this.desk.openCount(this.registry);
  }

  /** An arrow: the conversation hands it on as endQuestions. */
  readonly endQuestions = (reason: string): void => {
    this.desk.stopReason = reason;
    this.desk.endAll(this.registry, reason);
    for (const entry of this.registry.running({ kind: 'ask' })) this.registry.stop(entry.id);
  };
}

/**
 * One asker from up to two: either alone, or both at once where the first outcome (an answer,
 * a decline, ...) wins and the other is withdrawn. Forms (AskUserQuestion) go to the first only.
 */
export function firstOf(first: Asker | undefined, second: Asker | undefined): Asker | undefined {
  if (!first || !second) return first ?? second;
  const both: Asker = (question, options, signal) => {
    const loser = new AbortController();
    const shared = AbortSignal.any([signal, loser.signal]);
    return new Promise<string | undefined>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        loser.abort(new AskError('aborted', 'it was answered elsewhere'));
        fn();
      };
      for (const asker of [first, second]) {
        asker(question, options, shared).then(
          (answer) => settle(() => resolve(answer)),
          (error) => settle(() => reject(error)),
        );
      }
    });
  };
  if (first.form) both.form = first.form;
  return both;
}
