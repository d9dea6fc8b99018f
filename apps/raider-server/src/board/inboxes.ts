/**
 * The agents' inboxes on the live board (issue 27): what waits for each agent of a list, peeked
 * and never taken (the board must not consume a message), the watches that redraw the board when
 * an inbox changes, and a person's message to an agent, sent through send_message's own checks.
 */

import { received } from '@raider/kit/received';
import { multiLine, oneLine } from '@raider/kit/shown-text';
import type { MessageStore, StoredMessage } from '@raider/tasks-registry';
import { ROSTER_INBOX } from '../agent-name.js';
import type { BoardAgent, BoardMessage, BoardMessageAnswer } from './board-state.js';
import type { ConversationInboxes } from './conversation-inboxes.js';

/**
 * Who a person at the board is to the agents: the sender of the board's messages, so the
 * recipient reads `Message from a person at raider/board: …`. It holds a `/`, which no agent's
 * name may (names follow the list-id rules), so it can never be taken for an agent, nor an agent
 * for it; the stores take it as a sender (a non-empty string of at most 200 characters). An agent
 * that answers with send_message { to: "a person at raider/board" } is refused at once, as for
 * any name that is not an agent's, rather than filling an inbox nobody reads. It says a person
 * wrote it, where `raider/board` alone could pass for a message raider made.
 */
export const BOARD_SENDER = 'a person at raider/board';

/**
 * The sender of a named person's messages (a board token of the server's table of agents names
 * them): `Dana at raider/board`. It holds a `/` as BOARD_SENDER does, so no agent can be it.
 */
export function boardSender(person: string | undefined): string {
  return person === undefined ? BOARD_SENDER : `${person} at raider/board`;
}

/** The most agents shown per list (a page's state stays small whatever the roster holds). */
export const MAX_AGENTS_SHOWN = 100;

/** The most messages shown per agent: the oldest, the next a take gets. */
export const MAX_MESSAGES_SHOWN = 10;

/** The longest text shown of a message, in characters (a message may hold 64 000). */
export const MAX_TEXT_SHOWN = 300;

/** How many inboxes are peeked at once (a database's connections are shared with the agents). */
const PEEKS_AT_ONCE = 8;

/** `text` cut at MAX_TEXT_SHOWN characters, never inside a surrogate pair. */
function shownText(text: string): { text: string; cut?: true } {
  if (text.length <= MAX_TEXT_SHOWN) return { text };
  let end = MAX_TEXT_SHOWN;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: `${text.slice(0, end)}…`, cut: true };
}

/** The text of element `name` of a notification's markup, its escapes (`&amp;`, `&lt;`, `&gt;`) undone. */
function elementOf(markup: string, name: string): string | undefined {
  const found = new RegExp(`<${name}>([^<]*)</${name}>`).exec(markup)?.[1];
  return found?.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * What the board shows of a message: a plain message's lines (`multiLine`: no control character
 * acts, and a line that begins like raider's framing is shown behind `> `), or a notification's
 * summary and kind as one line each, never its markup (a person reads the summary; the status or
 * task-type says what kind of notice it is, and a notice that did not end has no status).
 */
function shownMessage(message: StoredMessage): { text: string; kind?: string } {
  if (!message.notification) return { text: multiLine(message.text) };
  const summary = message.label ?? elementOf(message.text, 'summary');
  const kind = elementOf(message.text, 'status') ?? elementOf(message.text, 'task-type');
  return {
    text: oneLine(summary ?? message.text),
    ...(kind === undefined || kind === '' ? {} : { kind: oneLine(kind) }),
  };
}

/** A stored message as the board shows it. */
function boardMessage(message: StoredMessage): BoardMessage {
  const { text, kind } = shownMessage(message);
  return {
    id: message.id,
    ...(message.from === undefined ? {} : { from: oneLine(message.from) }),
    ...shownText(text),
    notification: message.notification,
    ...(kind === undefined ? {} : { kind }),
    ...(message.taskId === undefined ? {} : { taskId: oneLine(message.taskId) }),
    sentAt: message.sentAt,
  };
}

/** An error's message for the page, one line of at most 200 characters. */
function problemOf(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** What one agent's inbox holds now, peeked. */
async function agentInbox(store: MessageStore, name: string): Promise<BoardAgent> {
  try {
    const waiting = await store.peek(name);
    return { name, waiting: waiting.length, messages: waiting.slice(0, MAX_MESSAGES_SHOWN).map(boardMessage) };
  } catch (error) {
    return { name, waiting: 0, messages: [], error: `its inbox could not be read: ${problemOf(error)}` };
  }
}

/** The agents of one list and their inboxes, and the store they were read from. */
export interface ListInboxes {
  agents: BoardAgent[];
  moreAgents: number;
  store: MessageStore | undefined;
}

/**
 * The inboxes of one list, from the conversations on it (`views`: they share the list's store):
 * its agents as send_message's `to: "*"` reaches them (the roster through the first, the agents
 * connected through each: an agent is one that connected to the list under its name), every
 * inbox peeked, never taken.
 */
export async function listInboxes(views: readonly ConversationInboxes[]): Promise<ListInboxes> {
  const first = views[0];
  if (!first) return { agents: [], moreAgents: 0, store: undefined };
  const names = new Set(await first.agents());
  for (const view of views.slice(1)) for (const agent of view.served()) names.add(agent);
  const all = [...names];
  const shown = all.slice(0, MAX_AGENTS_SHOWN);
  const store = first.store();
  const agents: BoardAgent[] = [];
  for (let at = 0; at < shown.length; at += PEEKS_AT_ONCE) {
    agents.push(...(await Promise.all(shown.slice(at, at + PEEKS_AT_ONCE).map((name) => agentInbox(store, name)))));
  }
  return { agents, moreAgents: all.length - shown.length, store };
}

/**
 * Keeps the board's watches while a person has it open: each shown agent's inbox and each list's
 * roster (a store's watch tells of sends and give-backs, here and in other processes), and each
 * conversation's takes (a watch does not tell of a take). Each calls `changed`.
 */
export class InboxWatches {
  /** Stops of the inbox watches, by store, then by agent. */
  private readonly inboxes = new Map<MessageStore, Map<string, () => void>>();
  /** Stops of the take listeners, by conversation. */
  private readonly takes = new Map<ConversationInboxes, () => void>();

  constructor(private readonly changed: () => void) {}

  /** Watches exactly what `lists` show (the roster of each store too), and the takes of `views`. */
  sync(lists: readonly ListInboxes[], views: readonly ConversationInboxes[]): void {
    const wanted = new Map<MessageStore, Set<string>>();
    for (const { store, agents } of lists) {
      if (!store) continue;
      const names = wanted.get(store) ?? new Set([ROSTER_INBOX]);
      for (const agent of agents) if (!agent.error) names.add(agent.name);
      wanted.set(store, names);
    }
    for (const [store, watches] of this.inboxes) {
      const names = wanted.get(store);
      for (const [agent, stop] of watches) {
        if (names?.has(agent)) continue;
        stop();
        watches.delete(agent);
      }
      if (watches.size === 0) this.inboxes.delete(store);
    }
    for (const [store, names] of wanted) {
      const watches = this.inboxes.get(store) ?? new Map<string, () => void>();
      this.inboxes.set(store, watches);
      for (const agent of names) {
        if (watches.has(agent)) continue;
        try {
          watches.set(
            agent,
            store.watch(agent, () => this.changed()),
          );
        } catch {
          // A name the store does not take (its inbox read failed as well): nothing to watch.
        }
      }
    }
    const current = new Set(views);
    for (const [view, stop] of this.takes) {
      if (current.has(view)) continue;
      stop();
      this.takes.delete(view);
    }
    for (const view of current) {
      if (!this.takes.has(view))
        this.takes.set(
          view,
          view.onTaken(() => this.changed()),
        );
    }
  }

  /** Stops every watch (no page is open). */
  clear(): void {
    for (const watches of this.inboxes.values()) for (const stop of watches.values()) stop();
    this.inboxes.clear();
    for (const stop of this.takes.values()) stop();
    this.takes.clear();
  }
}

/** A send's outcome: the HTTP status and the JSON the page gets. */
export interface SendOutcome {
  status: number;
  answer: BoardMessageAnswer;
}

/**
 * Sends a person's message from the board (POST /board/message's JSON `body`): `{ list, to,
 * message, taskId? }`, `list` naming a list on the board (its key), the rest send_message's own
 * arguments. `inboxesOf` finds the conversations on a list. Sent as BOARD_SENDER (or as
 * `<person> at raider/board` when a board token named the person) through
 * send_message's checks, limits and texts: `Message sent to alice`, or the refusal's text
 * without its `Error: ` prefix (400). Never throws for what a client sends.
 */
export async function sendFromBoard(
  body: unknown,
  inboxesOf: (list: string) => readonly ConversationInboxes[],
  person?: string,
): Promise<SendOutcome> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      status: 400,
      answer: { error: `expected a JSON object { list, to, message, taskId? }, received ${received(body)}` },
    };
  }
  const { list, ...args } = body as Record<string, unknown>;
  const views = typeof list === 'string' ? inboxesOf(list) : [];
  const view = views[0];
  if (!view) {
    return {
      status: 404,
      answer: { error: `list: expected the key of a list on the board, received ${received(list)}` },
    };
  }
  const result = await view.send(boardSender(person), args);
  const text = result.content[0].text;
  return result.isError
    ? { status: 400, answer: { error: text.replace(/^Error: /, '') } }
    : { status: 200, answer: { sent: text } };
}
