/**
 * The question tool of a conversation (ask_user, or AskUserQuestion under Claude names): asked
 * through the client's elicitation and, when there is one, a second way to reach a person (the
 * live board). Every question in flight is an `ask` entry of the registry whose stop withdraws it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type Answerer, AskError, type Asker, AskTools, elicitationAnswerer } from '@raider/ask-tools';
import type { TaskRegistry } from '@raider/tasks-registry';
import type { Logger } from '../log.js';
import type { Names } from '../types.js';

/** What the question tool is mounted with. */
export interface QuestionOptions {
  names: Names;
  askTimeoutMs: number;
  /** Results carry structuredContent and the tools declare output schemas (default false). */
  structuredOutput?: boolean;
  fallbackAnswerer: Answerer | undefined;
  log: Logger;
}

/** Mounts the question tool; returns `endQuestions(reason)`, which withdraws every open question. */
export function mountQuestions(
  server: McpServer,
  registry: TaskRegistry,
  options: QuestionOptions,
): (reason: string) => void {
  let stopReason = 'the question was withdrawn';
  const elicit = elicitationAnswerer(server, { timeoutMs: options.askTimeoutMs });
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
  const answerer: Answerer = () => {
    const asker = firstOf(elicit(), options.fallbackAnswerer?.());
    if (!asker) return undefined;
    const tracked: Asker = (question, choices, signal) => track(question, signal, (s) => asker(question, choices, s));
    const form = asker.form;
    if (form) {
      tracked.form = (questions, signal) =>
        track(questions.map((q) => q.question).join(' / '), signal, (s) => form(questions, s));
    }
    return tracked;
  };
  const ask = new AskTools({
    answerer,
    timeoutMs: options.askTimeoutMs,
    ...(options.structuredOutput ? { structuredOutput: true } : {}),
  });
  if (options.names === 'claude') ask.registerAskUserQuestion(server);
  else ask.register(server);
  return (reason: string) => {
    stopReason = reason;
    for (const entry of registry.running({ kind: 'ask' })) registry.stop(entry.id);
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
