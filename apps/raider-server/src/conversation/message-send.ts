/**
 * send_message at work: a message to one agent's inbox, or to every other agent of the list
 * (to: "*"), and the words of a store's refusal.
 */
import { MessageLimitError, type MessageStore } from '@raider/tasks-registry';
import type { ToolCallResult } from '@raider/todo-tools/v2';
import { EVERYONE } from './agent-name.js';
import { sentTo, sentToAgents } from './message-texts.js';
import { refusal, text } from './message-tools.js';
import type { Roster } from './roster.js';

/**
 * The text of a store's refusal of a send: a limit's own words; a write whose fate is unknown (a
 * connection lost in flight: `mayHaveBeenSaved`) says it may have been sent; else what failed and
 * that nothing was sent.
 */
export function sendFailure(error: unknown): string {
  if (MessageLimitError.isInstance(error)) return (error as Error).message;
  const reason = error instanceof Error ? error.message : String(error);
  // A connection lost while the write was in flight: it may have been saved, and may arrive.
  if ((error as { mayHaveBeenSaved?: unknown } | undefined)?.mayHaveBeenSaved === true) {
    return `the message may have been sent: ${reason}; it may still arrive, so send it again only if a duplicate does no harm`;
  }
  // The store's own "the message was not sent" is said once, as "nothing was sent".
  return `the message could not be sent: ${reason.replace(/; the message was not sent$/, '')}; nothing was sent`;
}

/** The inboxes a send reaches: the list's store, its roster, and every agent of the list. */
export interface SendInboxes {
  store(): MessageStore;
  readonly roster: Pick<Roster, 'note'>;
  agents(): Promise<string[]>;
}

/** Sends the message of send_message's `args` (checked already) from `from`. */
export async function sendMessage(
  inbox: SendInboxes,
  from: string,
  args: Record<string, unknown>,
): Promise<ToolCallResult> {
  const outgoing = (to: string) => ({
    to,
    from,
    text: args.message as string,
    notification: false,
    ...(args.taskId === undefined ? {} : { taskId: args.taskId as string }),
    ...(args.summary === undefined ? {} : { label: (args.summary as string).slice(0, 200) }),
  });
  if (args.to !== EVERYONE) {
    const to = args.to as string;
    try {
      await inbox.store().send(outgoing(to));
    } catch (error) {
      return refusal(sendFailure(error));
    }
    void inbox.roster.note(to);
    return text(sentTo(to));
  }
  const others = (await inbox.agents()).filter((agent) => agent !== from);
  if (others.length === 0) {
    return refusal(
      `to: "${EVERYONE}" reaches no other agent of this list yet (its agents own tasks on it, have an inbox on it, or are connected); nothing was sent`,
    );
  }
  const failed: string[] = [];
  for (const agent of others) {
    try {
      await inbox.store().send(outgoing(agent));
    } catch (error) {
      failed.push(`not to ${agent}: ${sendFailure(error)}`);
    }
  }
  const sent = others.length - failed.length;
  if (sent === 0) return refusal(`nothing was sent; ${failed.join('; ')}`);
  return text([sentToAgents(sent), ...failed].join('; '));
}
