/**
 * What the board's page draws and sends, shared by the server (board.ts) and the page
 * (board-page/main.ts, a separate Vite build that imports these types only).
 */

/** A task as the board shows it, whatever the family. */
export interface BoardTask {
  id: string;
  title: string;
  status: 'pending' | 'in_progress' | 'completed';
  /** Shown for the task in progress, and only when it differs from its title. */
  activeForm?: string;
  owner?: string;
  /** Ids of the tasks it waits on that are not completed. */
  blockedBy: string[];
}

/** A message waiting in an agent's inbox, as the board shows it (peeked: the board never takes one). */
export interface BoardMessage {
  /** The store's id of the message. */
  id: string;
  /**
   * Who sent it: an agent, or a person at the board (BOARD_SENDER), as one line (`oneLine` of
   * `@raider/kit/shown-text`); absent for raider's own notifications.
   */
  from?: string;
  /**
   * What the board shows of it, cut at MAX_TEXT_SHOWN characters (then `cut` is true): a plain
   * message's text with its lines kept and every other control character made visible (`multiLine`
   * of `@raider/kit/shown-text`), or a notification's summary as one line (its `label`, else its
   * `<summary>` element), never the `<task-notification>` markup.
   */
  text: string;
  cut?: true;
  /** True for a `<task-notification>` raider sent, false for a plain message. */
  notification: boolean;
  /**
   * A notification's kind, one line: its `<status>` (completed, failed, killed), else its
   * `<task-type>` (a notice of something that did not end, such as task_assigned); absent for a
   * plain message and for a notification that carries neither.
   */
  kind?: string;
  /** The task a plain message is about, when its sender named one. */
  taskId?: string;
  /** When it was sent, in ms since the epoch. */
  sentAt: number;
}

/** An agent of a list (on its roster or connected: one that connected under its name) and what waits in its inbox. */
export interface BoardAgent {
  name: string;
  /** How many messages wait for it (neither taken nor reserved by a take). */
  waiting: number;
  /** The oldest of them (the next a take gets), at most MAX_MESSAGES_SHOWN. */
  messages: BoardMessage[];
  /** Why its inbox could not be read, when it could not (then `waiting` is 0). */
  error?: string;
}

/** One list on the board: a conversation's own, or a shared one (shown once). */
export interface BoardList {
  key: string;
  title: string;
  family: string;
  tasks: BoardTask[];
  /** Running entries of the conversations on this list (open questions, ...). */
  work: { id: string; kind: string; description?: string }[];
  /** The list's agents and their inboxes, at most MAX_AGENTS_SHOWN. */
  agents: BoardAgent[];
  /** How many more agents the list has than `agents` shows. */
  moreAgents: number;
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
export type BoardAnswer = ({ answer: string } | { decline: true }) & {
  /** Who answered, when the server knows (a board token of its table of agents names the person). */
  person?: string;
};

/**
 * What a person sends to an agent from the board (POST /board/message): the list (its `key`), and
 * send_message's own arguments, checked as send_message checks them.
 */
export interface BoardMessageRequest {
  list: string;
  to: string;
  message: string;
  taskId?: string;
}

/** The board's answer to a message: send_message's answer, or its refusal without the `Error: ` prefix. */
export type BoardMessageAnswer = { sent: string } | { error: string };
