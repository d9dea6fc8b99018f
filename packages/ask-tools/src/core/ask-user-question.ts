/**
 * Claude Code's AskUserQuestion: 1-4 multiple-choice questions in one form, each of which the
 * person may also answer in their own words; the result is worded as Claude Code 2.1.332 words
 * it (answers-text.ts). SDK-neutral: the adapters mount it.
 */
import { z } from 'zod';
import { answeredOnly, answersText } from './answers-text.js';
import { type ElicitationForm, type FormSchema, fieldText } from './elicitation-form.js';
import { nonEmptyText, strictError, unique } from './input-rules.js';
import type { QuestionTool } from './question-tool.js';
import { received } from './tool-input.js';
import { answered, invalid } from './tool-result.js';
import type { FormQuestion } from './types.js';

/** What an AskUserQuestion call asks. */
export interface AskUserQuestionInput {
  questions: FormQuestion[];
}

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

/** The form of AskUserQuestion: one field per question (multiSelect as a multiple choice) and a free-text field beside each. */
function formSchema(questions: FormQuestion[]): FormSchema {
  const properties: FormSchema['properties'] = {};
  questions.forEach((q, i) => {
    const described = q.options.map((o) => (o.description ? `${o.label}: ${o.description}` : o.label)).join('; ');
    properties[`q${i + 1}`] = q.multiSelect
      ? {
          type: 'array',
          title: q.header,
          description: `${q.question} (choose any: ${described})`,
          items: { type: 'string', enum: q.options.map((o) => o.label) },
        }
      : {
          type: 'string',
          title: q.header,
          description: q.question,
          oneOf: q.options.map((o) => ({
            const: o.label,
            title: o.description ? `${o.label}: ${o.description}` : o.label,
          })),
        };
    properties[`q${i + 1}_other`] = {
      type: 'string',
      title: `${q.header}: other`,
      description: 'Or answer in your own words',
    };
  });
  return { type: 'object', properties };
}

async function sequentially<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}

/**
 * AskUserQuestion. An asker that can ask a form gets all questions at once; another is asked
 * question by question. Every answer, even none at all, is a result worded as Claude Code words
 * it (`answersText`), never an error; declined, dismissed and the other outcomes stay errors.
 */
export const ASK_USER_QUESTION: QuestionTool<AskUserQuestionInput, (string | undefined)[]> = {
  name: 'AskUserQuestion',
  title: 'Ask the user questions',
  description:
    'Ask the person 1-4 multiple-choice questions to clarify what they want; they can always answer in their own words.',
  schema: ASK_USER_QUESTION_INPUT,
  output: { answers: z.record(z.string(), z.string()) },
  parse(args) {
    const parsed = ASK_USER_QUESTION_INPUT.safeParse(args);
    if (!parsed.success) return { success: false, result: invalid(parsed.error) };
    return { success: true, input: { questions: parsed.data.questions as FormQuestion[] } };
  },
  ask: (asker, { questions }, signal) =>
    asker.form
      ? asker.form(questions, signal)
      : sequentially(questions, (q) =>
          asker(
            q.question,
            q.options.map((o) => o.label),
            signal,
          ),
        ),
  form: ({ questions }): ElicitationForm => ({
    message: questions.length === 1 ? (questions[0] as FormQuestion).question : 'Please answer these questions.',
    requestedSchema: formSchema(questions),
  }),
  read: ({ questions }, content) =>
    questions.map((q, i) => {
      const other = fieldText(content[`q${i + 1}_other`]);
      const picked = content[`q${i + 1}`];
      if (q.multiSelect) {
        const labels = Array.isArray(picked) ? picked.filter((v): v is string => typeof v === 'string') : [];
        const all = other ? [...labels, other] : labels;
        return all.length ? all.join(', ') : undefined;
      }
      // Typed text wins over a picked label for a single choice.
      return other || fieldText(picked) || undefined;
    }),
  result({ questions }, answers, structuredOutput) {
    const entries = answeredOnly(questions, answers).map(({ question, answer }) => [question.question, answer]);
    return answered(answersText(questions, answers), { answers: Object.fromEntries(entries) }, structuredOutput);
  },
};
