/**
 * AskTools: the ask_user tool (seed 004) and Claude Code's AskUserQuestion, as MCP tools. The
 * tools ask nobody themselves: the answerer yields the way to put a question to a person, asked
 * on every call; without one they refuse plainly, so a run nobody watches never blocks.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { answeredOnly, answersText } from '../core/answers-text.js';
import { callContext } from '../core/context.js';
import { DEFAULT_TIMEOUT_MS, elicitationAnswerer } from './elicitation.js';
import { AskError } from '../core/errors.js';
import { type AskFailure, duration, failureText, UNAVAILABLE } from '../core/outcomes.js';
import { advertised, formatIssues, received } from '../core/tool-input.js';
import type { Answerer, Asker, FormQuestion } from '../core/types.js';
import { VERSION } from '../core/version.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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

const nonEmptyText = (what: string, max: number) =>
  z
    .string({ error: (issue) => `expected ${what}, received ${received(issue.input)}` })
    .refine((s) => s.trim() !== '', { error: (issue) => `expected ${what}, received ${received(issue.input)}` })
    .refine((s) => s.length <= max, {
      error: (issue) => `expected at most ${max} characters, received ${(issue.input as string).length} characters`,
    });
const unique = <T>(key: (item: T) => string, what: string) => ({
  check: (items: T[]) => new Set(items.map(key)).size === items.length,
  error: (issue: { input?: unknown }) => {
    const keys = (issue.input as T[]).map(key);
    const twice = keys.find((k, i) => keys.indexOf(k) !== i);
    return `expected ${what} to be unique, received ${received(twice)} twice`;
  },
});
const strictError = (issue: { code?: string; keys?: string[]; input?: unknown }) =>
  issue.code === 'unrecognized_keys'
    ? `unknown key ${issue.keys?.map((k) => JSON.stringify(k)).join(', ')}`
    : `expected an object, received ${received(issue.input)}`;

const optionTexts = unique<string>((o) => o, 'the options');
const ASK_USER_INPUT = z.strictObject(
  {
    question: nonEmptyText('a question (a non-empty text)', 2000).describe(
      'The question for the person at the keyboard.',
    ),
    options: z
      .array(nonEmptyText('an option (a non-empty text)', 200), {
        error: (issue) => `expected a list of option texts, received ${received(issue.input)}`,
      })
      .max(20, { error: (issue) => `expected at most 20 options, received ${(issue.input as unknown[]).length}` })
      .refine(optionTexts.check, { error: optionTexts.error })
      .optional()
      .describe('Choices to offer; the person may also answer in their own words.'),
  },
  { error: strictError },
);

const labels = unique<{ label: string }>((o) => o.label, 'option labels');
const questionTexts = unique<{ question: string }>((q) => q.question, 'question texts');
const ASK_USER_QUESTION_INPUT = z.strictObject(
  {
    questions: z
      .array(
        z.strictObject(
          {
            question: nonEmptyText('a question (a non-empty text)', 2000).describe('The complete question.'),
            header: nonEmptyText('a short label (a non-empty text)', 40).describe(
              'Very short chip label (about 12 characters).',
            ),
            options: z
              .array(
                z.strictObject(
                  {
                    label: nonEmptyText('an option label (a non-empty text)', 200).describe('The choice (1-5 words).'),
                    description: z
                      .string({ error: (issue) => `expected a string, received ${received(issue.input)}` })
                      .max(1000, {
                        error: (issue) =>
                          `expected at most 1000 characters, received ${(issue.input as string).length} characters`,
                      })
                      .describe('What the choice means.'),
                  },
                  { error: strictError },
                ),
                { error: (issue) => `expected a list of options, received ${received(issue.input)}` },
              )
              .min(2, { error: (issue) => `expected 2 to 4 options, received ${(issue.input as unknown[]).length}` })
              .max(4, { error: (issue) => `expected 2 to 4 options, received ${(issue.input as unknown[]).length}` })
              .refine(labels.check, { error: labels.error })
              .describe('2-4 choices; the person can always answer in their own words instead.'),
            multiSelect: z
              .boolean({ error: (issue) => `expected true or false, received ${received(issue.input)}` })
              .default(false)
              .describe('Allow choosing several options.'),
          },
          { error: strictError },
        ),
        { error: (issue) => `expected a list of questions, received ${received(issue.input)}` },
      )
      .min(1, { error: (issue) => `expected 1 to 4 questions, received ${(issue.input as unknown[]).length}` })
      .max(4, { error: (issue) => `expected 1 to 4 questions, received ${(issue.input as unknown[]).length}` })
      .refine(questionTexts.check, { error: questionTexts.error })
      .describe('1-4 questions to ask the person.'),
  },
  { error: strictError },
);

const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/** Resolves or rejects with `promise`, or rejects with the signal's reason when it aborts first. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  promise.catch(() => {}); // The loser of the race must not become an unhandled rejection.
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The error result for arguments that failed their schema: `Error: field: expected …, received …`. */
const invalid = (error: z.ZodError): CallToolResult => ({
  content: [{ type: 'text', text: `Error: ${formatIssues(error)}` }],
  isError: true,
});

const failure = (code: AskFailure, detail?: string): CallToolResult => ({
  content: [{ type: 'text', text: failureText(code, detail) }],
  isError: true,
});

/**
 * The question tools of one conversation: ask_user (seed 004) and, on request, Claude Code's
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
    this.progressIntervalMs = options.progressIntervalMs ?? 15_000;
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
  register(server: McpServer): void {
    server.registerTool(
      'ask_user',
      {
        title: 'Ask the user',
        description:
          'Ask the person at the keyboard a question, with optional choices; the answer is the result. If nobody can answer, decide yourself and say what you assumed.',
        inputSchema: advertised(ASK_USER_INPUT),
        ...(this.structuredOutput ? { outputSchema: { answer: z.string() } } : {}),
        annotations: ANNOTATIONS,
      },
      async (args, extra) => {
        const parsed = ASK_USER_INPUT.safeParse(args);
        if (!parsed.success) return invalid(parsed.error);
        const { question, options } = parsed.data;
        return this.asking(extra, async (asker, signal) => {
          const answer = await asker(question, options ?? [], signal);
          if (answer === undefined) return failure('no-answer');
          if (typeof answer !== 'string') return failure('failed', 'the answerer gave no text');
          if (answer.trim() === '') return failure('empty');
          return this.answered(answer, { answer });
        });
      },
    );
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
  registerAskUserQuestion(server: McpServer, options: AskUserQuestionOptions = {}): void {
    server.registerTool(
      options.name ?? 'AskUserQuestion',
      {
        title: 'Ask the user questions',
        description:
          'Ask the person 1-4 multiple-choice questions to clarify what they want; they can always answer in their own words.',
        inputSchema: advertised(ASK_USER_QUESTION_INPUT),
        ...(this.structuredOutput ? { outputSchema: { answers: z.record(z.string(), z.string()) } } : {}),
        annotations: ANNOTATIONS,
      },
      async (args, extra) => {
        const parsed = ASK_USER_QUESTION_INPUT.safeParse(args);
        if (!parsed.success) return invalid(parsed.error);
        const { questions } = parsed.data;
        return this.asking(extra, async (asker, signal) => {
          const form = questions as FormQuestion[];
          const answers = asker.form
            ? await asker.form(form, signal)
            : await sequentially(form, (q) =>
                asker(
                  q.question,
                  q.options.map((o) => o.label),
                  signal,
                ),
              );
          const answered = answeredOnly(form, answers).map(({ question, answer }) => [question.question, answer]);
          return this.answered(answersText(form, answers), { answers: Object.fromEntries(answered) });
        });
      },
    );
  }

  /**
   * Runs one question: finds an asker (or refuses), bounds the wait by the timeout and the call's
   * signal, keeps a progress token alive, and turns every outcome that is not an answer into its
   * error result.
   */
  private async asking(extra: Extra, ask: (asker: Asker, signal: AbortSignal) => Promise<CallToolResult>) {
    const asker = this.answerer?.();
    if (!asker) return failure('unavailable');
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = AbortSignal.any([extra.signal, timeout]);
    const stopProgress = this.keepAlive(extra);
    try {
      return await callContext.run({ requestId: extra.requestId }, () => raceSignal(ask(asker, signal), signal));
    } catch (error) {
      if (extra.signal.aborted) return failure('aborted');
      if (timeout.aborted) return failure('timeout', duration(this.timeoutMs));
      if (error instanceof AskError) {
        if (error.code === 'timeout') return failure('timeout', duration(this.timeoutMs));
        return failure(error.code, error.message === error.code ? undefined : error.message);
      }
      return failure('failed', error instanceof Error ? error.message : String(error));
    } finally {
      stopProgress();
    }
  }

  /**
   * The result of an answer: its text alone, or with `structuredContent` when `structuredOutput`
   * is on (then the output schema is declared and the spec requires it on every non-error result).
   */
  private answered(text: string, structured: Record<string, unknown>): CallToolResult {
    const content: CallToolResult['content'] = [{ type: 'text', text }];
    return this.structuredOutput ? { content, structuredContent: structured } : { content };
  }

  /** Sends increasing progress while waiting, when the client gave a progress token. */
  private keepAlive(extra: Extra): () => void {
    const progressToken = extra._meta?.progressToken;
    if (progressToken === undefined) return () => {};
    let progress = 0;
    const timer = setInterval(() => {
      progress += 1;
      extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, message: 'Waiting for the user to answer' },
        })
        .catch(() => {});
    }, this.progressIntervalMs);
    timer.unref?.();
    return () => clearInterval(timer);
  }
}

async function sequentially<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}

/**
 * Mounts Claude Code's AskUserQuestion on `server`, asking the connected client's user through
 * elicitation (or `options.answerer` when given); refuses plainly when nobody can answer.
 * `structuredOutput` is AskTools' option of that name (default false: text only, for Claude Code).
 */
export function registerAskUserQuestion(
  server: McpServer,
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
