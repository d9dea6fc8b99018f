/**
 * Who the agents of a list are, for `send_message { to: "*" }` (issue 27): those that own tasks on
 * it, those that have an inbox on it, and those connected now. The message stores keep inboxes,
 * not a list of them, so a list keeps its roster in an inbox of its own, `raider/agents` (a name no
 * agent can have: it holds a `/`): one plain message per agent that connected or was written to,
 * peeked, never taken. So every server on the list (one process, a folder, a database) sees every
 * agent, whichever server it talks to. An entry is written again once a day an agent is seen, and
 * the store drops entries older than its `maxAgeMs` (7 days by default): an agent gone a week drops
 * out. A roster past the inbox bound (1 000 entries by default) takes no more entries; those agents
 * are still reached while they own tasks or are connected here.
 */
import type { MessageStore } from '@raider/tasks-registry';
import type { Logger } from '../log.js';

/** The inbox that holds a list's roster. */
export const ROSTER_INBOX = 'raider/agents';

/** How old an agent's entry may be before a new one is written for it, in ms. */
const REFRESH_MS = 24 * 3600 * 1000;

/** The roster of one list, through one holder's message store. */
export class Roster {
  /** When this holder last made sure of an agent's entry (ms), by agent. */
  private readonly noted = new Map<string, number>();

  constructor(
    private readonly messages: () => MessageStore,
    private readonly log: Logger,
  ) {}

  /** Makes sure `agent` is on the roster (a peek, and a send when its entry is missing or old); never rejects. */
  async note(agent: string): Promise<void> {
    const now = Date.now();
    const last = this.noted.get(agent);
    if (last !== undefined && now - last < REFRESH_MS) return;
    this.noted.set(agent, now);
    try {
      const entries = await this.messages().peek(ROSTER_INBOX);
      if (entries.some((entry) => entry.text === agent && now - entry.sentAt < REFRESH_MS)) return;
      await this.messages().send({ to: ROSTER_INBOX, from: agent, text: agent, notification: false });
    } catch (error) {
      this.noted.delete(agent);
      this.log.debug(`the roster could not note ${agent}: ${(error as Error).message}`);
    }
  }

  /** The agents on the roster, in the order they were first noted. */
  async agents(): Promise<string[]> {
    const entries = await this.messages().peek(ROSTER_INBOX);
    return [...new Set(entries.map((entry) => entry.text))];
  }
}
