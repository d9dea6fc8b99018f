/**
 * What the board needs from a conversation, and no more: board.ts is fed this narrow view (a
 * `Conversation` of conversation.ts satisfies it), so the board never imports the conversation
 * that offers the board app.
 */
import type { Family } from '../types.js';

/** A live conversation as the board shows it. */
export interface BoardConversation {
  /** The conversation's own id (its inboxes are registered under it). */
  readonly id: string;
  readonly family: Family;
  /** The id of the shared or durable list, if the conversation works on one. */
  readonly listId: string | undefined;
  /** The task list as raider://tasks shows it. */
  listState(): Promise<unknown>;
  /** The registry's entries as plain data (raider://work). */
  work(): unknown[];
}
