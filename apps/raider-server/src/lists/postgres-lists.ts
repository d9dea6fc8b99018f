/**
 * Lists in PostgreSQL (@raider/postgres-store): one pool and one LISTEN connection per server (its
 * runtime's `DatabaseLists`), loaded only when a database is named (a server without one never
 * loads node-postgres). The store's word on its LISTEN connection (lost, back) goes to the
 * server's log.
 */
import type { PostgresLists } from '@raider/postgres-store';
import type { MessageStore } from '@raider/tasks-registry';
import type { ListStore, TaskCatchUp, TaskStore, TaskTransaction } from '@raider/todo-tools/v2';
import type { Logger } from '../log.js';
import { type ListHandle, listHandle, type WholeSection } from './list-handle.js';

/** One list of the database, as its lists open it. */
type PostgresList = Awaited<ReturnType<PostgresLists['list']>>;

/**
 * The database settings of the server's options (`readOptions` fills them in from the flags);
 * one left out takes the store's default (10 connections, 15 s lock timeout, 10 s idle timeout).
 * `databaseUrl` is here so that any object carrying the server's options can be given whole.
 */
export interface PostgresSettings {
  databaseUrl?: string | undefined;
  databasePoolSize?: number | undefined;
  databaseLockTimeoutMs?: number | undefined;
  databaseIdleTimeoutMs?: number | undefined;
}

/**
 * One server's lists in PostgreSQL: a pool and a LISTEN connection per database it names, opened
 * at the first use with that use's logger and settings (every conversation of a server shares
 * them: they come from its command line). Part of the server's runtime, so closing one server
 * never closes another's pool or LISTEN connection in the same process.
 */
export class DatabaseLists {
  private readonly opened = new Map<string, Promise<PostgresLists>>();
  private closed = false;

  /** The lists of the database at `url`, opened at its first use. @throws Error once closed. */
  private listsOf(url: string, log: Logger | undefined, settings: PostgresSettings): Promise<PostgresLists> {
    if (this.closed) return Promise.reject(new Error('the server is closed: its database connections are gone'));
    let lists = this.opened.get(url);
    if (!lists) {
      lists = import('@raider/postgres-store').then(({ openPostgresLists }) =>
        openPostgresLists({
          connectionString: url,
          ...(settings.databasePoolSize !== undefined ? { maxConnections: settings.databasePoolSize } : {}),
          ...(settings.databaseLockTimeoutMs !== undefined ? { lockTimeoutMs: settings.databaseLockTimeoutMs } : {}),
          ...(settings.databaseIdleTimeoutMs !== undefined
            ? { idleInTransactionTimeoutMs: settings.databaseIdleTimeoutMs }
            : {}),
          // Lost: changes made on other servers go unheard until it is back (a warning); back: news.
          onStatus: (message, kind) => (kind === 'lost' ? log?.warn(message) : log?.info(message)),
        }),
      );
      this.opened.set(url, lists);
    }
    return lists;
  }

  /** Ends every pool and LISTEN connection this server opened (at shutdown); none opens after. */
  async close(): Promise<void> {
    this.closed = true;
    const opened = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(opened.map(async (lists) => (await lists.catch(() => undefined))?.close()));
  }

  /**
   * List `id` of the database at `url`, for one conversation; `settings` (the server's options)
   * size its connections and set its timeouts.
   */
  list(url: string, id: string, log: Logger | undefined, settings: PostgresSettings = {}): ListHandle {
    return postgresList(() => this.listsOf(url, log, settings).then((lists) => lists.list(id)), id, log);
  }
}

/** The handle of list `id`, reached through `list` (which opens the database's lists at its first use). */
function postgresList(list: () => Promise<PostgresList>, id: string, log: Logger | undefined): ListHandle {
  const tasks: TaskStore = {
    load: async () => {
      const snapshot = await (await list()).tasks.load();
      log?.debug(`list ${id}: read whole (${snapshot.tasks.length} tasks, change ${snapshot.seq})`);
      return snapshot;
    },
    changesSince: async (seq) => (await list()).tasks.changesSince(seq),
    transact: async <R>(seq: number, fn: (catchUp: TaskCatchUp) => Promise<TaskTransaction<R>>) =>
      (await list()).tasks.transact(seq, fn),
  };
  const stops = new Set<() => void>();
  /** Opens the list for `onOpen`, unless the returned stop was called first; the stop ends what `onOpen` began. */
  const whenOpen = (onOpen: (opened: Awaited<ReturnType<typeof list>>) => () => void): (() => void) => {
    let stop: (() => void) | undefined;
    let stopped = false;
    void list().then(
      (opened) => {
        if (!stopped) stop = onOpen(opened);
      },
      // The database cannot be reached: the calls say so; a watch just hears nothing until then.
      () => {},
    );
    const unwatch = () => {
      stopped = true;
      stop?.();
      stops.delete(unwatch);
    };
    stops.add(unwatch);
    return unwatch;
  };
  // The inboxes (raider_messages, NOTIFY on every send): the pool and LISTEN connection are the lists'.
  const messages: MessageStore = {
    send: async (message) => (await list()).messages.send(message),
    take: async (agent, options) => (await list()).messages.take(agent, options),
    peek: async (agent) => (await list()).messages.peek(agent),
    watch: (agent, onMessage) => whenOpen((opened) => opened.messages.watch(agent, onMessage)),
  };
  /** The list's store of `section`, reached through the list once it is open. */
  const store = <T>(section: WholeSection): ListStore<T> => {
    const pick = async () => {
      const opened = await list();
      return (section === 'todo' ? opened.todo : opened.todoWrite) as unknown as ListStore<T>;
    };
    return {
      load: async () => (await pick()).load(),
      transact: async (fn) => (await pick()).transact(fn),
    };
  };
  return listHandle({
    id,
    tasks,
    messages,
    todo: store('todo'),
    todoWrite: store('todo_write'),
    watch: (onChange) => whenOpen((opened) => opened.watch(onChange)),
    release() {
      for (const stop of [...stops]) stop();
    },
  });
}
