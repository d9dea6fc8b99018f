/**
 * The outcomes of a question other than an answer. Each becomes an error result the model can act
 * on and can never mistake for an answer.
 */

/** Why a question got no answer. */
export type AskFailure =
  | 'unavailable'
  | 'declined'
  | 'cancelled'
  | 'timeout'
  | 'disconnected'
  | 'aborted'
  | 'no-answer'
  | 'empty'
  | 'failed';

/** The refusal when nobody can answer (`AskTools#unavailable`). */
export const UNAVAILABLE =
  'Nobody can answer questions in this session: no person is at the keyboard to answer. Decide for yourself, go on, and say in your reply what you assumed.';

const DECIDE = 'Decide for yourself, go on, and say in your reply what you assumed.';

/** The text of the error result for an outcome. */
export function failureText(code: AskFailure, detail?: string): string {
  switch (code) {
    case 'unavailable':
      return UNAVAILABLE;
    case 'declined':
      return `The user declined to answer the question. ${DECIDE}`;
    case 'cancelled':
      return `The user dismissed the question without answering. ${DECIDE}`;
    case 'timeout':
      return `The question timed out: no answer came within ${detail ?? 'the time allowed'}. ${DECIDE}`;
    case 'disconnected':
      return `The client disconnected before the user answered. ${DECIDE}`;
    case 'aborted':
      return detail
        ? `The question was withdrawn: ${detail}. ${DECIDE}`
        : 'The question was withdrawn because the tool call was cancelled.';
    case 'no-answer':
      return `The user gave no answer. ${DECIDE}`;
    case 'empty':
      return `The user's answer was empty, which is not an answer. ${DECIDE}`;
    case 'failed':
      return `The question could not be put to the user${detail ? `: ${detail}` : ''}. ${DECIDE}`;
  }
}

/** "30 minutes", "90 seconds": a timeout for a person to read. */
export function duration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
