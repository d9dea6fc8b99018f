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
    this.modernTool = new ModernQuestionTool(() => this.questions.tools('modern'));
  }

  /** Registers the question tool on `server`, its questions asked for the agent of each call's server. */
  register(server: FeatureServer): void {
    if (server.era === 'modern') this.modernTool.registerOn(server.tools);
    else for (const tool of this.questions.tools('legacy', server.mcp)) server.tools.register(tool);
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
