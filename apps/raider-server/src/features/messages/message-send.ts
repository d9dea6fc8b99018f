/**
 * send_message at work: a message to one agent's inbox, or to every other agent of the list
 * (to: "*"), and the words of a store's refusal. The agents of a list are those that connected to
 * it under their names (roster.ts); a send names one of them, or is refused with the names there
 * are (unseen-agent.ts), unless the server lets it write to names not seen yet
 * (`--send-to-unseen`). A send never adds its recipient to the roster: only connecting does.
 */
import { oneLine } from '@raider/kit/shown-text';
import { MessageLimitError, type MessageStore } from '@raider/tasks-registry';
import type { ToolCallResult } from '@raider/todo-tools/v2';
import { EVERYONE } from '../../agent-name.js';
import { sentTo, sentToAgents } from './message-texts.js';
import { refusal, text } from './message-tools.js';
import { unseenAgentProblem } from './unseen-agent.js';

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

/** The inboxes a send reaches: the list's store, and the agents of the list. */
export interface SendInboxes {
  store(): MessageStore;
  /** Every agent of the list (connected to it under its name); rejects when the roster cannot be read. */
  agents(): Promise<string[]>;
  /** `--send-to-unseen`: a name no agent connected as is written to all the same (it is still no agent). */
  readonly sendToUnseen: boolean;
}

/** The agents of the list, or the refusal that says they could not be read. */
async function agentsOf(inbox: SendInboxes): Promise<string[] | ToolCallResult> {
  try {
    return await inbox.agents();
  } catch (error) {
    return refusal(sendFailure(error));
  }
}

/** The refusal of `to: "*"` when the list has no agent but the sender. */
export const NO_OTHER_AGENT = `to: "${EVERYONE}" reaches no other agent of this list yet (its agents are those that connected to it, each under its own name); nothing was sent`;

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
    if (!inbox.sendToUnseen) {
      const agents = await agentsOf(inbox);
      if (!Array.isArray(agents)) return agents;
      if (!agents.includes(to)) return refusal(unseenAgentProblem(to, agents));
    }
    try {
      await inbox.store().send(outgoing(to));
    } catch (error) {
      return refusal(sendFailure(error));
    }
    return text(sentTo(to));
  }
  const agents = await agentsOf(inbox);
  if (!Array.isArray(agents)) return agents;
  const others = agents.filter((agent) => agent !== from);
  if (others.length === 0) return refusal(NO_OTHER_AGENT);
  const failed: string[] = [];
  for (const agent of others) {
    try {
      await inbox.store().send(outgoing(agent));
    } catch (error) {
      failed.push(`not to ${oneLine(agent)}: ${sendFailure(error)}`);
    }
  }
  const sent = others.length - failed.length;
  if (sent === 0) return refusal(`nothing was sent; ${failed.join('; ')}`);
  return text([sentToAgents(sent), ...failed].join('; '));
}
