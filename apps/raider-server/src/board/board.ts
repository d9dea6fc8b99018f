/**
 * The live board: a page at `/` that shows every live conversation's (or shared list's) tasks,
 * the running work, the open questions and the agents' inboxes (inboxes.ts), updated through
 * server-sent events; it answers questions and sends a person's messages to agents.
 */
import type { ServerResponse } from 'node:http';
import type { Answerer } from '@raider/ask-tools/v2';
import { oneLine } from '@raider/kit/shown-text';
import type {
  BoardAgent,
  BoardAnswer,
  BoardList,
  BoardMessage,
  BoardQuestion,
  BoardState,
  BoardTask,
} from './board-state.js';
import type { BoardConversation } from './board-types.js';
import type { ConversationInboxes, InboxRegistry } from './conversation-inboxes.js';
import { InboxWatches, type ListInboxes, listInboxes, type SendOutcome, sendFromBoard } from './inboxes.js';
import { type AnsweredBy, type PendingQuestion, pageAsker, replyToQuestion } from './pending-question.js';

export type { BoardAgent, BoardAnswer, BoardList, BoardMessage, BoardQuestion, BoardState, BoardTask };

type Pending = BoardQuestion & PendingQuestion;

type Task = Record<string, unknown>;

/**
 * A task's activeForm as the board shows it: for the task in progress only, and only when it
 * says something its title does not (Claude Code's models often send the subject again).
 */
function shownActiveForm(status: unknown, activeForm: unknown, title: string): { activeForm?: string } {
  if (status !== 'in_progress' || !activeForm) return {};
  const shown = oneLine(activeForm);
  return shown === title ? {} : { activeForm: shown };
}

/**
 * The tasks of a list state (as raider://tasks shows it) in the board's shape; tombstones hidden.
 * Each title, activeForm and owner is one line (`oneLine`: no control character acts on the page),
 * and an activeForm equal to its title is left out.
 */
export function boardTasks(state: unknown): BoardTask[] {
  const listed = (state ?? {}) as { family?: string; tasks?: Task[]; todos?: Task[] };
  if (listed.family === 'todo_write') {
    return (listed.todos ?? []).map((t, i) => {
      const title = oneLine(t.content);
      return {
        id: String(i + 1),
        title,
        status: t.status as BoardTask['status'],
        ...shownActiveForm(t.status, t.activeForm, title),
        blockedBy: [],
      };
    });
  }
  const tasks = (listed.tasks ?? []).filter((t) => t.status !== 'deleted');
  const done = new Set(tasks.filter((t) => t.status === 'completed').map((t) => String(t.id)));
  return tasks.map((t) => {
    const title = oneLine(listed.family === 'todo' ? t.subject : t.content);
    const blockedBy = ((t.blockedBy as unknown[] | undefined) ?? []).map(String).filter((id) => !done.has(id));
    const task: BoardTask = {
      id: String(t.id),
      title,
      status: t.status as BoardTask['status'],
      ...shownActiveForm(t.status, t.activeForm, title),
      blockedBy,
    };
    if (t.owner) task.owner = oneLine(t.owner);
    return task;
  });
}

/**
 * The most a page may leave unread, in bytes. A page that reads nothing (a stalled tab, a hostile
 * client) would otherwise make the server keep every update for it; past this it is dropped, and
 * when it reconnects it gets the current state.
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/**
 * How often an open board looks at the state again, in ms, and sends it when it changed. A take
 * made by another process is in no watch (a store's watch tells of sends and give-backs; takes
 * here are heard at once): this is how such a take leaves the board.
 */
export const LOOK_AGAIN_MS = 5_000;

/** The key of the list a conversation is on, as the board groups them (a shared list is shown once). */
function listKey(sessionId: string, conversation: BoardConversation): string {
  return conversation.listId ?? `session ${sessionId.slice(0, 8)}`;
}

/** The board of one HTTP server. */
export class Board {
  private readonly clients = new Set<ServerResponse>();
  private readonly questions = new Map<string, Pending>();
  private scheduled: NodeJS.Timeout | undefined;
  private readonly keepAlive: NodeJS.Timeout;
  private readonly lookAgain: NodeJS.Timeout;
  private readonly watches = new InboxWatches(() => this.changed());
  /** True while a broadcast is being made; `again` asks it for one more (one state at a time, in order). */
  private broadcasting = false;
  private again = false;
  /** The last state sent to the pages, as sent. */
  private lastSent = '';

  /**
   * A board of the conversations `conversations` yields (by session or list key), whose inboxes
   * it finds in `inboxes` (its server's registry).
   */
  constructor(
    private readonly conversations: () => Iterable<[string, BoardConversation]>,
    private readonly inboxes: Pick<InboxRegistry, 'get'>,
    /** Where a person's answer notes who gave it (the server's runtime's), when a board token names people. */
    private readonly answeredBy?: AnsweredBy,
  ) {
    this.keepAlive = setInterval(() => {
      for (const res of this.clients) this.send(res, ': keep-alive\n\n');
    }, 15_000);
    this.keepAlive.unref();
    this.lookAgain = setInterval(() => {
      if (this.clients.size) void this.broadcast(true);
    }, LOOK_AGAIN_MS);
    this.lookAgain.unref();
  }

  /** True while a person has the board open. */
  get open(): boolean {
    return this.clients.size > 0;
  }

  /** The board's state now. */
  async state(): Promise<BoardState> {
    const lists = new Map<string, BoardList>();
    const views = new Map<string, ConversationInboxes[]>();
    for (const [sessionId, conversation] of this.conversations()) {
      const key = listKey(sessionId, conversation);
      const inboxes = this.inboxes.get(conversation.id);
      if (inboxes) views.set(key, [...(views.get(key) ?? []), inboxes]);
      const running = (conversation.work() as { id: string; kind: string; status: string; description?: string }[])
        .filter((e) => e.status === 'running')
        .map(({ id, kind, description }) => ({ id, kind, ...(description ? { description } : {}) }));
      const existing = lists.get(key);
      if (existing) {
        existing.work.push(...running);
        continue;
      }
      let tasks: BoardTask[] = [];
      try {
        tasks = boardTasks(await conversation.listState());
      } catch {
        tasks = [];
      }
      lists.set(key, {
        key,
        title: conversation.listId ? `List ${conversation.listId}` : `Conversation ${sessionId.slice(0, 8)}`,
        family: conversation.family,
        tasks,
        work: running,
        agents: [],
        moreAgents: 0,
      });
    }
    const read: ListInboxes[] = [];
    for (const list of lists.values()) {
      const inboxes = await listInboxes(views.get(list.key) ?? []);
      list.agents = inboxes.agents;
      list.moreAgents = inboxes.moreAgents;
      read.push(inboxes);
    }
    // Watched only while a page is open: a page's redraw is all a watch is for.
    if (this.open) this.watches.sync(read, [...views.values()].flat());
    const questions = [...this.questions.values()].map(({ id, list, question, options }) => ({
      id,
      list,
      question,
      options,
    }));
    return { lists: [...lists.values()], questions };
  }

  /** Redraws every open page soon (changes that come together are sent once). */
  changed(): void {
    if (this.scheduled || !this.clients.size) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined;
      void this.broadcast();
    }, 30);
  }

  /**
   * Sends the state to every page (with `ifChanged`, only when it differs from the last sent).
   * One at a time: a change during a broadcast makes one more, so no page gets an older state last.
   */
  private async broadcast(ifChanged = false): Promise<void> {
    if (this.broadcasting) {
      this.again ||= !ifChanged;
      return;
    }
    this.broadcasting = true;
    try {
      do {
        this.again = false;
        const data = `event: state\ndata: ${JSON.stringify(await this.state())}\n\n`;
        if (ifChanged && data === this.lastSent) continue;
        this.lastSent = data;
        for (const res of this.clients) this.send(res, data);
      } while (this.again);
    } finally {
      this.broadcasting = false;
    }
  }

  /** Writes to one page, dropping it when what it has not read passes MAX_UNSENT_BYTES. */
  private send(res: ServerResponse, data: string): void {
    res.write(data);
    if (res.writableLength > MAX_UNSENT_BYTES) {
      this.clients.delete(res);
      res.destroy();
    }
  }

  /** Serves the event stream to one page: the state at once, then on every change. */
  async attach(res: ServerResponse): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write('retry: 1000\n\n');
    this.clients.add(res);
    res.on('close', () => {
      this.clients.delete(res);
      if (!this.clients.size) this.watches.clear();
    });
    this.send(res, `event: state\ndata: ${JSON.stringify(await this.state())}\n\n`);
  }

  /** The board's answerer for a conversation: asks on the board while a person has it open. */
  answerer(list: () => string): Answerer {
    return () => {
      if (!this.open) return undefined;
      const asker = pageAsker(
        this.questions,
        () => this.changed(),
        () => ({ list: list() }),
        this.answeredBy,
      );
      return asker;
    };
  }

  /** Takes a person's answer to a question; false when the question is no longer open. */
  answer(id: string, answer: BoardAnswer): boolean {
    return replyToQuestion(this.questions, id, answer);
  }

  /**
   * Sends a person's message to an agent of a list on the board (POST /board/message's body; see
   * sendFromBoard), as `person` when a board token named them, then redraws the pages.
   */
  async message(body: unknown, person?: string): Promise<SendOutcome> {
    const outcome = await sendFromBoard(
      body,
      (list) => {
        const found: ConversationInboxes[] = [];
        for (const [sessionId, conversation] of this.conversations()) {
          if (listKey(sessionId, conversation) !== list) continue;
          const inboxes = this.inboxes.get(conversation.id);
          if (inboxes) found.push(inboxes);
        }
        return found;
      },
      person,
    );
    if (outcome.status === 200) this.changed();
    return outcome;
  }

  /** Ends every page's stream. */
  close(): void {
    clearInterval(this.keepAlive);
    clearInterval(this.lookAgain);
    this.watches.clear();
    if (this.scheduled) clearTimeout(this.scheduled);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
