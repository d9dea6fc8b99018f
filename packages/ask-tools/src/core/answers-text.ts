/**
 * The text AskUserQuestion answers with, worded as Claude Code 2.1.332 words it. Claude Code shows
 * the model this text and nothing else (once `structuredContent` is left out), so a drop-in must
 * produce it to the character: the model was trained on these sentences, and the case wording
 * (offered labels only vs. anything typed) tells it how far to trust that the person agreed.
 */
import type { FormQuestion } from './types.js';

/** Every answer was an offered label: Claude Code's case "answered from the options, no notes". */
const ANSWERED = (entries: string) =>
  `Your questions have been answered: ${entries}. You can now continue with these answers in mind.`;

/** Some answer was typed ("Other"): Claude Code asks the model to read it, since it may say "stop". */
const ANSWERED_IN_OWN_WORDS = (entries: string) =>
  `The user answered: ${entries}. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`;

/** Nothing answered at all. */
export const NOT_ANSWERED = 'The user did not answer the questions.';

/**
 * True when `answer` is one of the question's labels or, for a multiSelect question, several of
 * them joined by `, `. Parsed against the labels rather than split on `, `, since a label may
 * itself hold a comma ("Yes, please"). Memoised on the position, so a huge typed answer costs a
 * pass per label, never a blow-up.
 */
export function isOfferedLabels(answer: string, question: FormQuestion): boolean {
  const labels = question.options.map((option) => option.label);
  if (labels.includes(answer)) return true;
  if (!question.multiSelect) return false;
  const failedAt = new Set<number>();
  const parsesFrom = (position: number): boolean => {
    if (failedAt.has(position)) return false;
    for (const label of labels) {
      if (!answer.startsWith(label, position)) continue;
      const end = position + label.length;
      if (end === answer.length) return true;
      if (answer.startsWith(', ', end) && parsesFrom(end + 2)) return true;
    }
    failedAt.add(position);
    return false;
  };
  return parsesFrom(0);
}

/**
 * The questions that got an answer, each with its answer: a blank one (or anything but text, from
 * an answerer that breaks its contract) is no answer, as an untouched field of the form is none.
 */
export function answeredOnly(
  questions: FormQuestion[],
  answers: (string | undefined)[],
): { question: FormQuestion; answer: string }[] {
  return questions.flatMap((question, index) => {
    const answer: unknown = answers[index];
    return typeof answer === 'string' && answer.trim() !== '' ? [{ question, answer }] : [];
  });
}

/**
 * The result text for the answers to `questions` (one per question, `undefined` or blank for one
 * left unanswered), the first case that applies, as in Claude Code 2.1.332:
 * - every answer an offered label: `Your questions have been answered: ENTRIES. You can now continue with these answers in mind.`
 * - any answer typed in the person's own words: `The user answered: ENTRIES. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`
 * - no answer at all: `The user did not answer the questions.`
 *
 * ENTRIES are `"QUESTION"="ANSWER"` for each answered question, joined by `, `; an unanswered
 * question gets no entry and no remark, as in Claude Code. Claude Code's other cases (a free-form
 * response, notes, a chosen preview) need fields our answerers do not offer, so they never arise.
 */
export function answersText(questions: FormQuestion[], answers: (string | undefined)[]): string {
  const answered = answeredOnly(questions, answers);
  if (!answered.length) return NOT_ANSWERED;
  const entries = answered.map(({ question, answer }) => `"${question.question}"="${answer}"`).join(', ');
  return answered.every(({ question, answer }) => isOfferedLabels(answer, question))
    ? ANSWERED(entries)
    : ANSWERED_IN_OWN_WORDS(entries);
}
