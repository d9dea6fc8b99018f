/**
 * What the messaging tools answer (issue 27), every text in one place: the answers of
 * send_message and wait_for_messages, and how the messages an agent takes read in one answer.
 *
 * What an agent wrote is shown in the kit's one visible form (issue 36: no message can forge a
 * line another agent reads): a header's fields (the sender, the task id) and the names in an
 * answer on one line (`oneLine`: a line break as `⏎`, a control character as its control
 * picture); a body keeps its lines (`multiLine`), but a later line that begins like raider's own
 * framing (`Message from …`, `---`, `#2 [completed] …`, `<task-notification>`) is shown behind
 * `> `. So each message of an answer has exactly one header line, and no body holds the separator.
 */
import { multiLine, oneLine } from '@raider/kit/shown-text';
import type { StoredMessage } from '@raider/tasks-registry';

/** wait_for_messages' answer when the wait ended with nothing for the agent. */
export const NO_MESSAGES = 'No messages';

/** What wait_for_messages answers when its deadline came before its timeoutSeconds (issue 28). */
export const NO_MESSAGES_YET = 'No messages yet';

/**
 * The summary of the notification an agent gets when its question was answered while it waited on
 * nothing: the question cut at 80 characters and shown on one line (it is also the message's
 * label, which a reader sees as one line).
 */
export function answeredSummary(question: { id: string; question: string; answeredBy?: string | undefined }): string {
  const asked = oneLine(question.question.length > 80 ? `${question.question.slice(0, 79)}…` : question.question);
  // Who answered, when a board token named the person (issue 38), on the same one line.
  const by = question.answeredBy === undefined ? '' : ` by ${JSON.stringify(oneLine(question.answeredBy))}`;
  return `Your question ${question.id} ("${asked}") was answered${by}; call ask_user with {"resume": "${question.id}"} to read the answer`;
}

/** What stands between two messages of one wait_for_messages answer (a line of its own). */
export const MESSAGE_SEPARATOR = '\n\n---\n\n';

/** send_message's answer: `Message sent to alice` (the name on one line). */
export function sentTo(agent: string): string {
  return `Message sent to ${oneLine(agent)}`;
}

/** send_message's answer to `to: "*"`: `Message sent to 3 agents` (`1 agent`). */
export function sentToAgents(count: number): string {
  return `Message sent to ${count} ${count === 1 ? 'agent' : 'agents'}`;
}

/**
 * How a plain message reads: `Message from bob: …`, `Message from bob about task #3: …`. The
 * sender and the task id on the header's one line; the body after it, its later lines never
 * beginning like a header, a separator or a task line (`multiLine`).
 */
export function plainMessageText(message: StoredMessage): string {
  const from = message.from === undefined ? 'Message' : `Message from ${oneLine(message.from)}`;
  const about = message.taskId === undefined ? '' : ` about task #${oneLine(message.taskId)}`;
  return `${from}${about}: ${multiLine(message.text)}`;
}

/**
 * The messages taken for an agent as the user messages they make (as the registry's `takeMessages`
 * of @raider/tasks-registry makes them): notifications due together (one after the other) joined
 * by a newline into one, a plain message alone; oldest first. A notification's text is raider's
 * own (`notificationText`, whose one-line elements are shown on one line); a plain message reads
 * as `plainMessageText` shows it.
 */
export function userMessages(messages: readonly StoredMessage[]): string[] {
  const made: { text: string; notification: boolean }[] = [];
  for (const message of messages) {
    const last = made[made.length - 1];
    if (message.notification && last?.notification) last.text += `\n${message.text}`;
    else
      made.push({
        text: message.notification ? message.text : plainMessageText(message),
        notification: message.notification,
      });
  }
  return made.map((message) => message.text);
}

/**
 * wait_for_messages' answer: the user messages of `messages` (see `userMessages`), separated by
 * MESSAGE_SEPARATOR when there are several, or NO_MESSAGES for none.
 */
export function deliveryText(messages: readonly StoredMessage[]): string {
  return messages.length === 0 ? NO_MESSAGES : userMessages(messages).join(MESSAGE_SEPARATOR);
}
