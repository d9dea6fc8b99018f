/** A question of Claude Code's AskUserQuestion. */
export interface FormQuestion {
  question: string;
  /** A short chip label (about 12 characters). */
  header: string;
  options: { label: string; description: string }[];
  multiSelect: boolean;
}

/**
 * Puts several questions to the person in one form; resolves to one answer per question
 * (`undefined` for one left unanswered). Throws an AskError for an outcome that is not an answer.
 */
export type FormAsker = (questions: FormQuestion[], signal: AbortSignal) => Promise<(string | undefined)[]>;

/**
 * Puts a question to a person: `options` is empty for a free-text question. Resolves to the
 * answer, or `undefined` when the person gave none; throws an AskError for another outcome
 * (declined, cancelled, ...). Should stop when `signal` aborts. May carry a `form` to ask several
 * questions at once (the elicitation answerer does).
 */
export type Asker = ((question: string, options: string[], signal: AbortSignal) => Promise<string | undefined>) & {
  form?: FormAsker;
};

/** Asked on every call: the way to put a question to a person now, or `undefined` when nobody can answer. */
export type Answerer = () => Asker | undefined;
