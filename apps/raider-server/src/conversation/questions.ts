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
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type Answerer, AskError, type Asker, AskTools, elicitationAnswerer } from '@raider/ask-tools/v2';
import type { TaskRegistry } from '@raider/tasks-registry';
import type { Logger } from '../log.js';
import type { Names } from '../types.js';
import { questionStateCodec } from './question-state.js';

/** What the question tool is mounted with. */
export interface QuestionOptions {
  names: Names;
  askTimeoutMs: number;
  /** Results carry structuredContent and the tools declare output schemas (default false). */
  structuredOutput?: boolean;
  fallbackAnswerer: Answerer | undefined;
  /** The key that signs a 2026-era question's state (shared by replicas); default: one made per process. */
  stateSecret?: string | undefined;
  log: Logger;
}

/** The question tool of one conversation, mounted on each of its servers. */
export interface Questions {
  /** Mounts the question tool on `server`, which serves `era`. */
  register(server: McpServer, era: 'legacy' | 'modern'): void;
  /** Withdraws every open question the server waits on, with `reason`. */
  endQuestions(reason: string): void;
}

/** The context of the question tool's call being answered (the 2026 era reads its client's capabilities there). */
const currentCall = new AsyncLocalStorage<ServerContext>();

/** Whether the client of a 2026-era request declared form elicitation in the request's envelope. */
function modernClientAnswersForms(ctx: ServerContext | undefined): boolean {
  // The envelope's keys are hidden from the SDK's public types (RequestMetaEnvelope is `{}`).
  const envelope = ctx?.mcpReq.envelope as Record<string, unknown> | undefined;
  const elicitation = (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)?.elicitation;
  return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);
}

/** Makes the question tool of a conversation. */
export function createQuestions(registry: TaskRegistry, options: QuestionOptions): Questions {
  let stopReason = 'the question was withdrawn';
  const track = async <T>(description: string, signal: AbortSignal, run: (signal: AbortSignal) => Promise<T>) => {
    const id = registry.nextId('ask');
    const controller = new AbortController();
    const promise = run(AbortSignal.any([signal, controller.signal]));
    registry.add({
      id,
      kind: 'ask',
      recipient: 'main',
      description,
      stop: () => controller.abort(new AskError('aborted', stopReason)),
      promise,
    });
    options.log.debug(`${id} asked: ${description}`);
    try {
      const answer = await promise;
      registry.finish(id, 'completed');
      return answer;
    } catch (error) {
      registry.finish(id, controller.signal.aborted || signal.aborted ? 'killed' : 'failed');
      throw controller.signal.aborted ? controller.signal.reason : error;
    }
  };
  const tracked = (asker: Asker | undefined): Asker | undefined => {
    if (!asker) return undefined;
    const ask: Asker = (question, choices, signal) => track(question, signal, (s) => asker(question, choices, s));
    const form = asker.form;
    if (form) {
      ask.form = (questions, signal) =>
        track(questions.map((q) => q.question).join(' / '), signal, (s) => form(questions, s));
    }
    return ask;
  };
  const presentation = options.structuredOutput ? { structuredOutput: true } : {};
  return {
    register(server, era) {
      const ask =
        era === 'legacy'
          ? // The client's elicitation and the board, raced on the call; never the SDK's shim.
            new AskTools({
              answerer: (() => {
                const elicit = elicitationAnswerer(server, { timeoutMs: options.askTimeoutMs });
                return () => tracked(firstOf(elicit(), options.fallbackAnswerer?.()));
              })(),
              elicitation: false,
              timeoutMs: options.askTimeoutMs,
              ...presentation,
            })
          : // The client asked in-band when it can answer a form; else the board, while the call waits.
            new AskTools({
              answerer: () =>
                modernClientAnswersForms(currentCall.getStore()) ? undefined : tracked(options.fallbackAnswerer?.()),
              // What the question carries across the client, signed (AskTools verifies it on the retry).
              requestState: questionStateCodec(options.stateSecret, options.askTimeoutMs),
              timeoutMs: options.askTimeoutMs,
              ...presentation,
            });
      // The registrar the tools see: the server's own registerTool, with the call's context kept
      // for the answerer above.
      const registrar = {
        server: server.server,
        registerTool: ((name: string, config: object, handler: (args: unknown, ctx: ServerContext) => unknown) =>
          server.registerTool(
            name,
            config as never,
            ((args: unknown, ctx: ServerContext) => currentCall.run(ctx, () => handler(args, ctx))) as never,
          )) as unknown as McpServer['registerTool'],
      };
      if (options.names === 'claude') ask.registerAskUserQuestion(registrar);
      else ask.register(registrar);
    },
    endQuestions(reason: string) {
      stopReason = reason;
      for (const entry of registry.running({ kind: 'ask' })) registry.stop(entry.id);
    },
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
