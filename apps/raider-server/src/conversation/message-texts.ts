/**
 * What the messaging tools answer (issue 27), every text in one place: the answers of
 * send_message and wait_for_messages, and how the messages an agent takes read in one answer.
 */
import type { StoredMessage } from '@raider/tasks-registry';

/** wait_for_messages' answer when the wait ended with nothing for the agent. */
export const NO_MESSAGES = 'No messages';

/** What wait_for_messages answers when its deadline came before its timeoutSeconds (issue 28). */
export const NO_MESSAGES_YET = 'No messages yet';

/** The summary of the notification an agent gets when its question was answered while it waited on nothing. */
export function answeredSummary(question: { id: string; question: string }): string {
  const asked = question.question.length > 80 ? `${question.question.slice(0, 79)}…` : question.question;
  return `Your question ${question.id} ("${asked}") was answered; call ask_user with {"resume": "${question.id}"} to read the answer`;
}

/** What stands between two messages of one wait_for_messages answer (a line of its own). */
export const MESSAGE_SEPARATOR = '\n\n---\n\n';

/** send_message's answer: `Message sent to alice`. */
export function sentTo(agent: string): string {
  return `Message sent to ${agent}`;
}

/** send_message's answer to `to: "*"`: `Message sent to 3 agents` (`1 agent`). */
export function sentToAgents(count: number): string {
  return `Message sent to ${count} ${count === 1 ? 'agent' : 'agents'}`;
}

/** How a plain message reads: `Message from bob: …`, `Message from bob about task #3: …`. */
export function plainMessageText(message: StoredMessage): string {
  const from = message.from === undefined ? 'Message' : `Message from ${message.from}`;
  const about = message.taskId === undefined ? '' : ` about task #${message.taskId}`;
  return `${from}${about}: ${message.text}`;
}

/**
 * The messages taken for an agent as the user messages they make (as the registry's `takeMessages`
 * of @raider/tasks-registry makes them): notifications due together (one after the other) joined
 * by a newline into one, a plain message alone; oldest first.
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
