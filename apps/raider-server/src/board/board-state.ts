/**
 * What the board's page draws and sends, shared by the server (board.ts) and the page
 * (board-page/main.ts, a separate Vite build that imports these types only).
 */

/** A task as the board shows it, whatever the family. */
export interface BoardTask {
  id: string;
  title: string;
  status: 'pending' | 'in_progress' | 'completed';
  /** Shown for the task in progress. */
  activeForm?: string;
  owner?: string;
  /** Ids of the tasks it waits on that are not completed. */
  blockedBy: string[];
}

/** One list on the board: a conversation's own, or a shared one (shown once). */
export interface BoardList {
  key: string;
  title: string;
  family: string;
  tasks: BoardTask[];
  /** Running entries of the conversations on this list (open questions, ...). */
  work: { id: string; kind: string; description?: string }[];
}

/** An open question waiting for an answer on the board. */
export interface BoardQuestion {
  id: string;
  list: string;
  question: string;
  options: string[];
}

/** What the page draws. */
export interface BoardState {
  lists: BoardList[];
  questions: BoardQuestion[];
}

/** What a person sent for a question. */
export type BoardAnswer = { answer: string } | { decline: true };
