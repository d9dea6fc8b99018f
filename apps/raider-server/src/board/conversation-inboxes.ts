/**
 * How the live board reaches a conversation's inboxes. The board is handed conversations, not
 * their messaging (features/messages/), so each messaging registers its inboxes in its server's
 * `InboxRegistry` under its conversation's id while the conversation is open, and the board looks
 * them up by that id.
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

/**
 * The inboxes of one server's open conversations, by conversation id (part of the server's
 * runtime): each conversation's messaging registers its inboxes here while it is open, and the
 * server's board looks them up by that id.
 */
export class InboxRegistry {
  private readonly open = new Map<string, ConversationInboxes>();

  /**
   * Registers the inboxes of the conversation `conversationId` (its messaging does, when it is
   * made); returns the function that removes them (when it closes). Of two open conversations
   * given one id (an embedder's choice), the later one's are found until it closes.
   */
  register(conversationId: string, inboxes: ConversationInboxes): () => void {
    this.open.set(conversationId, inboxes);
    return () => {
      if (this.open.get(conversationId) === inboxes) this.open.delete(conversationId);
    };
  }

  /** The inboxes of the open conversation whose id is `conversationId`, or undefined (none, or it closed). */
  get(conversationId: string): ConversationInboxes | undefined {
    return this.open.get(conversationId);
  }

  /** Forgets every conversation's inboxes (the server's runtime closes). */
  clear(): void {
    this.open.clear();
  }
}
