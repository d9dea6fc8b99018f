/**
 * The live board: a page at `/` that shows every live conversation's (or shared list's) tasks,
 * the running work and the open questions, updated through server-sent events, and answers
 * questions when a person has it open.
 */
import type { ServerResponse } from 'node:http';
import { type Answerer, AskError } from '@raider/ask-tools/v2';
import type { Conversation } from '../conversation/conversation.js';
import type { BoardAnswer, BoardList, BoardQuestion, BoardState, BoardTask } from './board-state.js';
import { type PendingQuestion, pageAsker } from './pending-question.js';

export type { BoardAnswer, BoardList, BoardQuestion, BoardState, BoardTask };

type Pending = BoardQuestion & PendingQuestion;

type Task = Record<string, unknown>;

/** The tasks of a list state (as raider://tasks shows it) in the board's shape; tombstones hidden. */
export function boardTasks(state: unknown): BoardTask[] {
  const listed = (state ?? {}) as { family?: string; tasks?: Task[]; todos?: Task[] };
  if (listed.family === 'todo_write') {
    return (listed.todos ?? []).map((t, i) => ({
      id: String(i + 1),
      title: String(t.content),
      status: t.status as BoardTask['status'],
      ...(t.status === 'in_progress' && t.activeForm ? { activeForm: String(t.activeForm) } : {}),
      blockedBy: [],
    }));
  }
  const tasks = (listed.tasks ?? []).filter((t) => t.status !== 'deleted');
  const done = new Set(tasks.filter((t) => t.status === 'completed').map((t) => String(t.id)));
  return tasks.map((t) => {
    const title = String(listed.family === 'todo' ? t.subject : t.content);
    const blockedBy = ((t.blockedBy as unknown[] | undefined) ?? []).map(String).filter((id) => !done.has(id));
    const task: BoardTask = { id: String(t.id), title, status: t.status as BoardTask['status'], blockedBy };
    if (t.status === 'in_progress' && t.activeForm) task.activeForm = String(t.activeForm);
    if (t.owner) task.owner = String(t.owner);
    return task;
  });
}

/**
 * The most a page may leave unread, in bytes. A page that reads nothing (a stalled tab, a hostile
 * client) would otherwise make the server keep every update for it; past this it is dropped, and
 * when it reconnects it gets the current state.
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/** The board of one HTTP server. */
export class Board {
  private readonly clients = new Set<ServerResponse>();
  private readonly questions = new Map<string, Pending>();
  private scheduled: NodeJS.Timeout | undefined;
  private readonly keepAlive: NodeJS.Timeout;

  constructor(private readonly conversations: () => Iterable<[string, Conversation]>) {
    this.keepAlive = setInterval(() => {
      for (const res of this.clients) this.send(res, ': keep-alive\n\n');
    }, 15_000);
    this.keepAlive.unref();
  }

  /** True while a person has the board open. */
  get open(): boolean {
    return this.clients.size > 0;
  }

  /** The board's state now. */
  async state(): Promise<BoardState> {
    const lists = new Map<string, BoardList>();
    for (const [sessionId, conversation] of this.conversations()) {
      const key = conversation.listId ?? `session ${sessionId.slice(0, 8)}`;
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
      });
    }
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

  private async broadcast(): Promise<void> {
    const data = `event: state\ndata: ${JSON.stringify(await this.state())}\n\n`;
    for (const res of this.clients) this.send(res, data);
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
    res.on('close', () => this.clients.delete(res));
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
      );
      return asker;
    };
  }

  /** Takes a person's answer to a question; false when the question is no longer open. */
  answer(id: string, answer: BoardAnswer): boolean {
    const pending = this.questions.get(id);
    if (!pending) return false;
    if ('decline' in answer) pending.reject(new AskError('declined'));
    else pending.resolve(answer.answer.trim() === '' ? undefined : answer.answer);
    return true;
  }

  /** Ends every page's stream. */
  close(): void {
    clearInterval(this.keepAlive);
    if (this.scheduled) clearTimeout(this.scheduled);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
