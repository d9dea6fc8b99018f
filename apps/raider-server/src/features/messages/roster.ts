/**
 * Who the agents of a list are (issues 27 and 36): those that connected to it under their names
 * (`--agent`, `X-Raider-Agent`, or a server's own id when it names none). Nobody else: a name only
 * written to, or only a task's owner, is no agent, so a misspelled `to` never becomes one that
 * every later `to: "*"` reaches. The message stores keep inboxes, not a list of them, so a list
 * keeps its roster in an inbox of its own, `raider/agents` (a name no agent can have: it holds a
 * `/`): one plain message per agent that connected, peeked, never taken. So every server on the
 * list (one process, a folder, a database) sees every agent, whichever server it talks to. An
 * entry is written again once a day an agent is seen, and the store drops entries older than its
 * `maxAgeMs` (7 days by default): an agent gone a week drops out. A roster past the inbox bound
 * (1 000 entries by default) takes no more entries; those agents are still reached while they are
 * connected here.
 */
import type { MessageStore } from '@raider/tasks-registry';
import { ROSTER_INBOX } from '../../agent-name.js';
import type { Logger } from '../../log.js';

/** How old an agent's entry may be before a new one is written for it, in ms. */
const REFRESH_MS = 24 * 3600 * 1000;

/** The roster of one list, through one holder's message store. */
export class Roster {
  /** When this holder last made sure of an agent's entry (ms), and that making sure, by agent. */
  private readonly noted = new Map<string, { at: number; done: Promise<void> }>();

  constructor(
    private readonly messages: () => MessageStore,
    private readonly log: Logger,
  ) {}

  /**
   * Makes sure `agent`, which connected as itself, is on the roster (a peek, and a send when its
   * entry is missing or old); never rejects. Resolves once its entry is written, also when another
   * call is writing it already: a caller that awaits it knows every server on the list sees it.
   */
  note(agent: string): Promise<void> {
    const now = Date.now();
    const last = this.noted.get(agent);
    if (last !== undefined && now - last.at < REFRESH_MS) return last.done;
    // In the map before the write starts: a write that fails at once takes its own entry out again.
    const entry = { at: now, done: Promise.resolve() };
    this.noted.set(agent, entry);
    entry.done = this.write(agent, entry);
    return entry.done;
  }

  /** Writes `agent`'s entry unless a fresh one is there; a failure is logged, and the next note tries again. */
  private async write(agent: string, entry: { at: number }): Promise<void> {
    const now = entry.at;
    try {
      const entries = await this.messages().peek(ROSTER_INBOX);
      if (entries.some((written) => written.text === agent && now - written.sentAt < REFRESH_MS)) return;
      await this.messages().send({ to: ROSTER_INBOX, from: agent, text: agent, notification: false });
    } catch (error) {
      if (this.noted.get(agent) === entry) this.noted.delete(agent);
      this.log.debug(`the roster could not note ${agent}: ${(error as Error).message}`);
    }
  }

  /** The agents on the roster, in the order they were first noted; rejects when the store cannot be read. */
  async agents(): Promise<string[]> {
    const entries = await this.messages().peek(ROSTER_INBOX);
    return [...new Set(entries.map((entry) => entry.text))];
  }
}
