/**
 * Task lists in PostgreSQL, for teams of agents on several machines sharing one list. A list is a
 * row (its high-water mark and the sequence of its last change), its tasks one row each (Claude
 * Code's record, as JSON), the other families' states a row each, and its change feed a table of
 * (sequence, ids put, ids removed), trimmed to the latest changes.
 *
 * Every tool call that changes a list is one transaction that first locks the list's row: the
 * caller catches up on what changed since the sequence it saw, its change is written (only the
 * tasks it touched), the sequence goes up by one and the change is NOTIFYed. Every process
 * LISTENs: a notification only wakes it (it is lost while a connection is down, so the LISTEN
 * connection is checked and the watched lists' sequences compared every few seconds), the changes
 * table is the truth. When the database goes away a call fails with an error that says so, nothing
 * is half-written (the transaction rolls back), and the next call after it is back works again;
 * only a connection lost while its COMMIT was in flight leaves the outcome unknown, and the error
 * says that (`mayHaveBeenSaved`). A server frozen in the middle of a call is cut off by PostgreSQL
 * (`idleInTransactionTimeoutMs`) before the calls waiting for its list give up (`lockTimeoutMs`).
 *
 * The list's agents' inboxes are a table of their own (`messages`, `@raider/tasks-registry`'s
 * MessageStore: see postgres-message-store.ts), and so are the questions its agents asked a
 * person (`questions`, its QuestionStore: see postgres-question-store.ts), both heard on the same
 * LISTEN connection.
 */
import {
  DEFAULT_MESSAGE_LIMITS,
  DEFAULT_QUESTION_LIMITS,
  type MessageLimits,
  type MessageStore,
  type QuestionLimits,
  type QuestionStore,
} from '@raider/tasks-registry';
import type {
  ListStore,
  ListStores,
  ListTransaction,
  TaskCatchUp,
  TaskDelta,
  TaskListSnapshot,
  TaskStore,
  TaskTransaction,
  TodoSnapshot,
  TodoWriteState,
} from '@raider/todo-tools';
import { Database } from './database.js';
import { ListIdError } from './errors.js';
import { CHANNEL, commit, delta, LIST_FEED, listRow, lockedListRow, snapshot } from './list-queries.js';
import { Listener } from './listener.js';
import { resolveLimits } from './message-checks.js';
import { MESSAGE_FEED } from './message-queries.js';
import { PostgresMessageStore } from './postgres-message-store.js';
import { PostgresQuestionStore } from './postgres-question-store.js';
import { resolveQuestionLimits } from './question-checks.js';
import { QUESTION_FEED } from './question-queries.js';

/** Options of {@link openPostgresLists}. */
export interface PostgresListsOptions {
  /** `postgres://user:password@host:port/database` (node-postgres' connection string). */
  connectionString: string;
  /** How many changes of each list the feed keeps (default 1 000); a holder further behind reads the list whole. */
  keepChanges?: number;
  /**
   * Most connections in the pool (default 10). Every server on the database takes up to this
   * many, plus one for LISTEN, of PostgreSQL's `max_connections`; a connection unused for 1 s is
   * given back, so the slots go where the load is.
   */
  maxConnections?: number;
  /**
   * How long a call waits for a connection, in ms (default 5 000): while PostgreSQL refuses one
   * (every slot taken: `too many clients already`; starting up; refused) the store tries again
   * every 200 ms until then, so a call gets a slot as soon as one frees.
   */
  connectTimeoutMs?: number;
  /**
   * How long a call waits for a list another server is changing, in ms (default 15 000; 0 leaves
   * PostgreSQL's `lock_timeout`). Beyond it the call fails saying another server holds the list,
   * and nothing was changed. Keep it above `idleInTransactionTimeoutMs`, so a frozen server is cut
   * off before the calls behind it give up.
   */
  lockTimeoutMs?: number;
  /**
   * How long a call's transaction may sit idle, in ms (default 10 000; 0 leaves PostgreSQL's
   * `idle_in_transaction_session_timeout`): PostgreSQL ends the session of a server frozen in the
   * middle of a call (SIGSTOP, a machine that hangs), rolling it back and freeing its list for the
   * others. The idle time includes the user code a call runs inside its transaction (a
   * `beforeTask` hook of `TaskTools`): a hook slower than this fails its call, and nothing was
   * changed.
   */
  idleInTransactionTimeoutMs?: number;
  /**
   * How often the LISTEN connection is checked, in ms (default 3 000): one query of the watched
   * lists' sequences, which wakes the watchers of a list that moved (a NOTIFY lost on the way is
   * made up for within this time).
   */
  heartbeatMs?: number;
  /** How long that check may go unanswered before the connection is dropped and made again, in ms (default 5 000). */
  heartbeatTimeoutMs?: number;
  /**
   * Told when the LISTEN connection is lost (`kind` `lost`: changes made elsewhere go unheard
   * until it is back) and when it is back (`back`: every watcher was woken to catch up), with a
   * message that names the database, never its password: `PostgreSQL at db:5432/raider: the
   * LISTEN connection is back after 8.2 s; every list is caught up`. Once per outage each.
   */
  onStatus?: (message: string, kind: 'lost' | 'back') => void;
  /**
   * The bounds of every agent's inbox (`messages`), over `DEFAULT_MESSAGE_LIMITS` of
   * `@raider/tasks-registry`: the longest text (64 000 characters), the most messages waiting for
   * one agent (1 000), how long one waits untaken before it is dropped (7 days). Every server on
   * a list should give the same.
   * @throws RegistryArgumentError / RegistryRangeError (from openPostgresLists) for bounds that are not positive numbers.
   */
  messageLimits?: Partial<MessageLimits>;
  /**
   * The bounds of every list's questions (`questions`), over `DEFAULT_QUESTION_LIMITS` of
   * `@raider/tasks-registry`: the longest question, answer or option (64 000 characters), the
   * most options (100), the most questions open at once in a list (1 000), how long a settled or
   * expired question stays readable (1 hour). Every server on a list should give the same.
   * @throws RegistryArgumentError / RegistryRangeError (from openPostgresLists) for bounds that are not positive numbers.
   */
  questionLimits?: Partial<QuestionLimits>;
}

/**
 * One list in the database: its task store (for one holder), the other families' stores, a
 * watch (a NOTIFY, or the LISTEN connection coming back), and its agents' inboxes.
 */
export interface PostgresList extends ListStores {
  readonly id: string;
  /**
   * The inboxes of the list's agents, shared by every server on the list: `@raider/tasks-registry`'s
   * MessageStore (send, a take leased until done or released, peek, watch), durable in
   * `raider_messages`; see the README's "Messages between agents".
   */
  readonly messages: MessageStore;
  /**
   * The questions the list's agents asked a person, shared by every server on the list:
   * `@raider/tasks-registry`'s QuestionStore (ask, get, open, settle: the first outcome wins
   * across servers, watch), durable in `raider_questions`; see the README's "Questions to a
   * person".
   */
  readonly questions: QuestionStore;
}

/** The lists of one database, sharing one pool and one LISTEN connection. */
export interface PostgresLists {
  /**
   * List `id` (nothing is read before its first call).
   * @throws ListIdError for an empty id, one over 200 characters, or one with U+0000.
   */
  list(id: string): PostgresList;
  /** Ends the pool and the LISTEN connection (once: a second call gets the first's promise). */
  close(): Promise<void>;
}

const READ = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** The task store of one list of the database. */
class PostgresTaskStore implements TaskStore {
  constructor(
    private readonly database: Database,
    private readonly listener: Listener,
    private readonly id: string,
    private readonly keep: number,
  ) {}

  load(): Promise<TaskListSnapshot> {
    return this.database.transaction(READ, 'nothing was read', async (client) =>
      snapshot(client, this.id, await listRow(client, this.id, false)),
    );
  }

  async changesSince(since: number): Promise<TaskDelta | undefined> {
    // The common case, nothing changed, is one query.
    const row = await this.database.single('nothing was read', (client) => listRow(client, this.id, false));
    if ((row?.seq ?? 0) === since) return { seq: since, put: [], removed: [], highWaterMark: row?.highWaterMark ?? 0 };
    return this.database.transaction(READ, 'nothing was read', async (client) =>
      delta(client, this.id, await listRow(client, this.id, false), since),
    );
  }

  transact<R>(since: number, fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>) {
    return this.database.transaction('BEGIN', 'nothing was changed', async (client, wrote) => {
      const row = await lockedListRow(client, this.id);
      const catchUp = (await delta(client, this.id, row, since)) ?? (await snapshot(client, this.id, row));
      const { write, result } = await fn(catchUp);
      if (!write || (write.put.length === 0 && write.removed.length === 0)) return { result, seq: row.seq };
      wrote();
      return { result, seq: await commit(client, this.id, row, write, this.keep) };
    });
  }

  watch(onChange: () => void): () => void {
    return this.listener.add(LIST_FEED, this.id, onChange);
  }
}

/** A family's whole state (todo, todo_write) in one row, changed under the list's row lock. */
function wholeState<T>(database: Database, id: string, family: 'todo' | 'todo_write'): ListStore<T> {
  const select = 'SELECT state FROM raider_states WHERE list_id = $1 AND family = $2';
  return {
    load() {
      return database.transaction('BEGIN READ ONLY', 'nothing was read', async (client) => {
        const { rows } = await client.query<{ state: T }>(select, [id, family]);
        return rows[0]?.state;
      });
    },
    transact<R>(fn: (current: T | undefined) => ListTransaction<T, R> | Promise<ListTransaction<T, R>>): Promise<R> {
      return database.transaction('BEGIN', 'nothing was changed', async (client, wrote) => {
        await lockedListRow(client, id);
        const { rows } = await client.query<{ state: T }>(select, [id, family]);
        const { next, result } = await fn(rows[0]?.state);
        if (next !== undefined) {
          wrote();
          await client.query(
            `INSERT INTO raider_states (list_id, family, state) VALUES ($1, $2, $3::json)
             ON CONFLICT (list_id, family) DO UPDATE SET state = excluded.state`,
            [id, family, JSON.stringify(next)],
          );
          await client.query('SELECT pg_notify($1, $2)', [CHANNEL, id]);
        }
        return result;
      });
    },
  };
}

/**
 * Opens the lists of the database at `options.connectionString` (nothing connects before the first
 * call; the schema is created or migrated then). Every call rejects with a `DatabaseError` when the
 * database fails it: nothing was changed, unless its `mayHaveBeenSaved` is true.
 */
export function openPostgresLists(options: PostgresListsOptions): PostgresLists {
  const keep = Math.max(1, options.keepChanges ?? 1000);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const database = new Database(options.connectionString, {
    maxConnections: options.maxConnections ?? 10,
    connectTimeoutMs,
    lockTimeoutMs: options.lockTimeoutMs ?? 15_000,
    idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs ?? 10_000,
  });
  const messageLimits = resolveLimits(DEFAULT_MESSAGE_LIMITS, options.messageLimits);
  const questionLimits = resolveQuestionLimits(DEFAULT_QUESTION_LIMITS, options.questionLimits);
  const listener = new Listener(options.connectionString, [LIST_FEED, MESSAGE_FEED, QUESTION_FEED], {
    heartbeatMs: options.heartbeatMs ?? 3000,
    heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 5000,
    connectTimeoutMs,
    onStatus: options.onStatus,
  });
  let closing: Promise<void> | undefined;
  return {
    list(id: string): PostgresList {
      if (typeof id !== 'string' || id === '' || id.length > 200) {
        throw new ListIdError(
          `list id: expected 1 to 200 characters, received ${typeof id === 'string' ? `${id.length}` : typeof id}`,
        );
      }
      if (id.includes('\u0000')) {
        throw new ListIdError(
          `list id: expected no U+0000 character (PostgreSQL's text cannot hold it), received one at ${id.indexOf('\u0000')}`,
        );
      }
      return {
        id,
        tasks: new PostgresTaskStore(database, listener, id, keep),
        todo: wholeState<TodoSnapshot>(database, id, 'todo'),
        todoWrite: wholeState<TodoWriteState>(database, id, 'todo_write'),
        watch: (onChange) => listener.add(LIST_FEED, id, onChange),
        messages: new PostgresMessageStore(database, listener, id, messageLimits),
        questions: new PostgresQuestionStore(database, listener, id, questionLimits),
      };
    },
    close() {
      closing ??= listener.close().then(() => database.end());
      return closing;
    },
  };
}
