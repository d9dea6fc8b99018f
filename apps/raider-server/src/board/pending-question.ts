/**
 * A question asked in a page (the web board, the board app) and waiting there for a person: the
 * one way both ask (`pageAsker`) and the one way both take a person's reply (`replyToQuestion`),
 * so an answer, a decline and a withdrawal end it alike.
 */
import { randomUUID } from 'node:crypto';
import { AskError, type Asker } from '@raider/ask-tools/v2';
import type { BoardAnswer } from './board-state.js';

/** A question open in a page, as the page shows it, and how the page ends it. */
export interface PendingQuestion {
  id: string;
  question: string;
  options: string[];
  /** Settles it with an answer, and who gave it when known (`person`). */
  resolve: (answer: string | undefined, person?: string) => void;
  reject: (error: unknown) => void;
}

/**
 * Who answered the questions put to pages, by the signal each was asked with: an asker answers
 * text only (ask-tools' `Asker`), so the page notes the person here and the desk of open questions,
 * which asked with that signal, reads it (`QuestionDesk.answer`). A WeakMap: a settled question's
 * signal takes its entry with it. One per server (its runtime).
 */
export type AnsweredBy = WeakMap<AbortSignal, string>;

/**
 * An asker that puts each question into `open` (keyed by a new id, with `extra` fields) until it is
 * answered, declined, or withdrawn through its signal; `changed` is called whenever `open` changes.
 * An answer that names its person notes it in `answeredBy` under the question's signal.
 */
export function pageAsker<Q extends PendingQuestion>(
  open: Map<string, Q>,
  changed: () => void,
  extra: () => Omit<Q, keyof PendingQuestion>,
  answeredBy?: AnsweredBy,
): Asker {
  return (question, options, signal) =>
    new Promise<string | undefined>((resolve, reject) => {
      const id = randomUUID();
      const done = () => {
        open.delete(id);
        signal.removeEventListener('abort', onAbort);
        changed();
      };
      const onAbort = () => {
        done();
        reject(signal.reason);
      };
      open.set(id, {
        ...extra(),
        id,
        question,
        options,
        resolve: (answer: string | undefined, person?: string) => {
          done();
          if (person !== undefined) answeredBy?.set(signal, person);
          resolve(answer);
        },
        reject: (reason: unknown) => {
          done();
          reject(reason);
        },
      } as Q);
      signal.addEventListener('abort', onAbort, { once: true });
      changed();
    });
}

/**
 * Ends the question `id` of `open` with a person's reply: an answer resolves the ask with its text
 * (a blank one, empty or white space only, as no answer: `undefined`), a decline rejects it with
 * `AskError('declined')`; the question leaves `open` either way. False, changing nothing, when no
 * question `id` is open (answered elsewhere, withdrawn or timed out).
 */
export function replyToQuestion(open: ReadonlyMap<string, PendingQuestion>, id: string, reply: BoardAnswer): boolean {
  const pending = open.get(id);
  if (!pending) return false;
  if ('decline' in reply) pending.reject(new AskError('declined'));
  else pending.resolve(reply.answer.trim() === '' ? undefined : reply.answer, reply.person);
  return true;
}
