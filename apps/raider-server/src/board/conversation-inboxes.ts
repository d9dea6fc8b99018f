/**
 * How the live board reaches a conversation's inboxes. The board is handed conversations, not
 * their messaging (conversation/messages.ts), so each messaging registers its inboxes here under
 * its conversation's id while the conversation is open, and the board looks them up by that id.
 */
import type { MessageStore } from '@raider/tasks-registry';
import type { ToolCallResult } from '@raider/todo-tools/v2';

/** One open conversation's inboxes, as the board reads and writes them (board/inboxes.ts). */
export interface ConversationInboxes {
  /** The store of the list's inboxes (the conversation's own when it has no list). */
  store(): MessageStore;
  /** Every agent of the list, as `to: "*"` reaches them: on its roster (connected to it) or served here. */
  agents(): Promise<string[]>;
  /** The agents this conversation serves now (connected here). */
  served(): string[];
  /**
   * send_message as `from`, with `args` { to, message, taskId? }: its checks, its sends and its
   * answer (`Message sent to alice`, or an `Error: …` result with isError), word for word.
   */
  send(from: string, args: Record<string, unknown>): Promise<ToolCallResult>;
  /**
   * Calls `listener` after a wait_for_messages of this conversation took messages for an agent
   * (a store's watch tells of sends and give-backs, not of takes); returns a function that stops it.
   */
  onTaken(listener: (agent: string) => void): () => void;
}

/** The inboxes of each open conversation, by conversation id. */
const open = new Map<string, ConversationInboxes>();

/**
 * Registers the inboxes of the conversation `conversationId` (its messaging does, when it is
 * made); returns the function that removes them (when it closes). Of two open conversations given
 * one id (an embedder's choice), the later one's are found until it closes.
 */
export function registerInboxes(conversationId: string, inboxes: ConversationInboxes): () => void {
  open.set(conversationId, inboxes);
  return () => {
    if (open.get(conversationId) === inboxes) open.delete(conversationId);
  };
}

/** The inboxes of the open conversation whose id is `conversationId`, or undefined (none, or it closed). */
export function conversationInboxes(conversationId: string): ConversationInboxes | undefined {
  return open.get(conversationId);
}
