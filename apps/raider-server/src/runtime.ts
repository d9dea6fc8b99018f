/**
 * A runtime per server: everything one server shares between its conversations, in one object
 * that `startHttp`, `startStdio` and a conversation made alone (`createConversation` without a
 * runtime) each make for themselves. Nothing of a server lives at module level, so two servers
 * embedded in one process share no pool, list, desk or registry, and closing one closes exactly
 * what it made (test/embedded-servers.test.ts).
 *
 * What stays at module level holds nothing of a server: caches of immutable values (a schema per
 * schema object, the board app's HTML and its tool configs, a `todo` list's JSON per frozen array)
 * and the sequence of question ids, which must be unique in the process (open-questions.ts).
 */
import { InboxRegistry } from './board/conversation-inboxes.js';
import type { AnsweredBy } from './board/pending-question.js';
import { QuestionDesks } from './features/questions/open-questions.js';
import { StateCodecs } from './features/questions/question-state.js';
import { MemoryLists } from './lists/memory-lists.js';
import { DatabaseLists } from './lists/postgres-lists.js';

/** What one server shares between its conversations; `close()` ends it. */
export interface ServerRuntime {
  /** The lists the server shares in memory between its conversations that name them (no data dir, no database). */
  readonly memoryLists: MemoryLists;
  /** The server's PostgreSQL pools and LISTEN connections, one per database, opened at first use. */
  readonly databases: DatabaseLists;
  /** The server's desks of open questions, one per list: a client that reconnects resumes its question there. */
  readonly desks: QuestionDesks;
  /** The inboxes of the server's open conversations, by conversation id, as its board reads them. */
  readonly inboxes: InboxRegistry;
  /** Who answered each question a page of the server was asked (a board token names the person). */
  readonly answeredBy: AnsweredBy;
  /** The keys that sign the server's 2026-era question state (its own key, or `--state-secret`). */
  readonly stateCodecs: StateCodecs;
  /**
   * Ends what the runtime made: its database pools and LISTEN connections (none opens after), its
   * lists in memory, its open questions' timers, its registry. Its conversations close first (the
   * server's close does that); calling it again does nothing more.
   */
  close(): Promise<void>;
}

/** A runtime of its own for one server (see the module's comment). */
export function createRuntime(): ServerRuntime {
  const memoryLists = new MemoryLists();
  const databases = new DatabaseLists();
  const answeredBy: AnsweredBy = new WeakMap();
  const desks = new QuestionDesks(answeredBy);
  const inboxes = new InboxRegistry();
  let closed: Promise<void> | undefined;
  return {
    memoryLists,
    databases,
    desks,
    inboxes,
    answeredBy,
    stateCodecs: new StateCodecs(),
    close() {
      closed ??= (async () => {
        desks.close();
        memoryLists.close();
        inboxes.clear();
        await databases.close();
      })();
      return closed;
    },
  };
}
