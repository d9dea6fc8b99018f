/**
 * ask_user, raider's question tool: one question to the person at the keyboard, with optional
 * choices; the answer is the result. SDK-neutral: the adapters mount it and decide how the
 * question reaches a person.
 */
import { z } from 'zod';
import { type ElicitationForm, type FormSchema, fieldText } from './elicitation-form.js';
import { nonEmptyText, strictError, unique } from './input-rules.js';
import type { QuestionTool } from './question-tool.js';
import { received } from './tool-input.js';
import { answered, failure, invalid } from './tool-result.js';

/** What an ask_user call asks: the question and its choices (none for a free-text question). */
export interface AskUserInput {
  question: string;
  options: string[];
}

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

/** The form of one question: a single choice that also takes free text, or free text. */
function questionSchema(options: string[]): FormSchema {
  if (!options.length) {
    return { type: 'object', properties: { answer: { type: 'string', title: 'Your answer' } }, required: ['answer'] };
  }
  return {
    type: 'object',
    properties: {
      choice: { type: 'string', title: 'Choose one', oneOf: options.map((o) => ({ const: o, title: o })) },
      other: { type: 'string', title: 'Or answer in your own words' },
    },
  };
}

/**
 * ask_user. Its answer is the result text and only that; no answer, a blank one or anything but
 * text from an answerer are distinct error results, as is every outcome that is not an answer.
 */
export const ASK_USER: QuestionTool<AskUserInput, string | undefined> = {
  name: 'ask_user',
  title: 'Ask the user',
  description:
    'Ask the person at the keyboard a question, with optional choices; the answer is the result. If nobody can answer, decide yourself and say what you assumed.',
  schema: ASK_USER_INPUT,
  output: { answer: z.string() },
  parse(args) {
    const parsed = ASK_USER_INPUT.safeParse(args);
    if (!parsed.success) return { success: false, result: invalid(parsed.error) };
    return { success: true, input: { question: parsed.data.question, options: parsed.data.options ?? [] } };
  },
  ask: (asker, input, signal) => asker(input.question, input.options, signal),
  form: (input): ElicitationForm => ({ message: input.question, requestedSchema: questionSchema(input.options) }),
  read(input, content) {
    // Words of their own win over a picked choice: they may say "neither".
    const answer = input.options.length
      ? fieldText(content.other) || fieldText(content.choice)
      : fieldText(content.answer);
    return answer === '' ? undefined : answer;
  },
  result(_input, answer, structuredOutput) {
    if (answer === undefined) return failure('no-answer');
    // An answerer from elsewhere may break its contract; its value is never taken for an answer.
    if (typeof answer !== 'string') return failure('failed', 'the answerer gave no text');
    if (answer.trim() === '') return failure('empty');
    return answered(answer, { answer }, structuredOutput);
  },
};
