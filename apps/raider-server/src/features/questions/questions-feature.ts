/**
 * The question feature of a conversation: ask_user (AskUserQuestion under Claude names) on every
 * server, as its era asks (questions.ts; the 2026 era's recorded once, modern-question-tool.ts),
 * and the open questions that keep a session or a list alive until they are answered or expire.
 */
import type { TaskRegistry } from '@raider/tasks-registry';
import type { Feature, FeatureServer } from '../../conversation/feature.js';
import { ModernQuestionTool } from './modern-question-tool.js';
import { createQuestions, type QuestionOptions, type Questions } from './questions.js';

/** The question feature: see the module's comment. */
export class QuestionsFeature implements Feature {
  readonly name = 'questions';
  private readonly questions: Questions;
  private readonly modernTool: ModernQuestionTool;

  /** Questions of the conversation whose registry is `registry` (each open one is an `ask_N` entry of it). */
  constructor(registry: TaskRegistry, options: QuestionOptions) {
    this.questions = createQuestions(registry, options);
    this.modernTool = new ModernQuestionTool(this.questions);
  }

  /** Registers the question tool on `server`, its questions asked for the server's agent. */
  register(server: FeatureServer): void {
    if (server.era === 'legacy') this.questions.register(server.mcp, 'legacy', server.agent);
    else this.modernTool.registerOn(server.mcp, server.agent);
  }

  /** Ends every open question with `reason` (each waiting call answers that it was withdrawn). */
  readonly endQuestions = (reason: string): void => this.questions.endQuestions(reason);

  /** True while a question this conversation asked is still open. */
  hasOpenQuestions(): boolean {
    return this.questions.openQuestions() > 0;
  }

  /** Withdraws the open questions: the conversation ends. */
  close(reason: string): void {
    this.questions.endQuestions(reason);
  }
}
