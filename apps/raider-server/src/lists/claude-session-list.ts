/**
 * The list of a Claude Code session (--claude-tasks, the list found from CLAUDE_CODE_SESSION_ID),
 * followed when Claude Code moves the session's tasks while the server runs: with agent teams,
 * Claude Code makes the session's implicit team and renames the session's folder
 * `tasks/<session id>/` to `tasks/session-<first 8 characters>/`, and its task panel shows that
 * folder from then on. A server that kept the old path would write into a folder nobody shows
 * (and make it again).
 *
 * What no server can follow: after `/clear` without agent teams Claude Code takes a new session id
 * and a new folder, and a running server is never told the new id (its CLAUDE_CODE_SESSION_ID stays
 * the old one). Only CLAUDE_CODE_TASK_LIST_ID keeps both on one folder across `/clear`.
 */
import { claudeListId, claudeTaskFolder } from '@raider/file-store';
import type { MessageStore } from '@raider/tasks-registry';
import type { ListStore, TaskStore } from '@raider/todo-tools/v2';
import type { Logger } from '../log.js';
import { folderList } from './folder-lists.js';
import { type ListHandle, listHandle, type WholeSection } from './list-handle.js';

/** A listener of the handle's watch, moved to each folder the list follows. */
interface Watcher {
  onChange: () => void;
  stop: () => void;
}

/** The list as it is followed: the folder it is in now, and what follows it there. */
interface Followed {
  current: { id: string; handle: ListHandle };
  /**
   * After a move the conversation's next catch-up is a whole read of the new folder: its change
   * feed's numbers are not the old folder's.
   */
  reload: boolean;
  released: boolean;
  readonly watchers: Set<Watcher>;
  /** Looks whether Claude Code moved the list (at each call), and follows it. */
  follow(): void;
}

/** Moves `list` to the folder `next` of `dataDir`, its watchers with it (woken after the call that noticed). */
function moveTo(list: Followed, next: string, dataDir: string, log: Logger | undefined): void {
  const old = list.current;
  try {
    list.current = { id: next, handle: folderList(dataDir, next, log) };
  } catch (error) {
    log?.warn(`list ${old.id}: cannot follow Claude Code to ${next} (${(error as Error).message}); staying`);
    return;
  }
  list.reload = true;
  for (const watcher of list.watchers) {
    watcher.stop();
    watcher.stop = list.current.handle.watch(watcher.onChange);
  }
  old.handle.release();
  log?.info(`list ${old.id}: Claude Code moved this session's tasks to ${next} (its team's folder); following it`);
  // Woken after the call that noticed the move, so that none runs inside it.
  setImmediate(() => {
    if (list.released) return;
    for (const watcher of list.watchers) watcher.onChange();
  });
}

/** The task store of the folder the list is in now (read whole once after a move). */
function followedTasks(list: Followed): TaskStore {
  return {
    load: () => {
      list.follow();
      list.reload = false;
      return list.current.handle.tasks().load();
    },
    changesSince: async (seq) => {
      list.follow();
      return list.reload ? undefined : list.current.handle.tasks().changesSince(seq);
    },
    transact: (seq, fn) => {
      list.follow();
      const since = list.reload ? -1 : seq;
      list.reload = false;
      return list.current.handle.tasks().transact(since, fn);
    },
  };
}

/**
 * The inboxes of the folder the list is in now. A watch stays on the folder it began on, and ends
 * when Claude Code moves the list (the old folder's handle is released): a waiting
 * wait_for_messages still looks again every few seconds.
 */
function followedMessages(list: Followed): MessageStore {
  return {
    send: (message) => {
      list.follow();
      return list.current.handle.messages().send(message);
    },
    take: (agent, options) => {
      list.follow();
      return list.current.handle.messages().take(agent, options);
    },
    peek: (agent) => {
      list.follow();
      return list.current.handle.messages().peek(agent);
    },
    watch: (agent, onMessage) => list.current.handle.messages().watch(agent, onMessage),
  };
}

/** The store of `section` in the folder the list is in now. */
function followedStore<T>(list: Followed, section: WholeSection): ListStore<T> {
  return {
    load: () => {
      list.follow();
      return list.current.handle.store<T>(section).load();
    },
    transact: (fn) => {
      list.follow();
      return list.current.handle.store<T>(section).transact(fn);
    },
  };
}

/**
 * The session's list as Claude Code finds it (`claudeTaskFolder(env, home)`), for one
 * conversation, followed at each call while it is still the session's own folder: once Claude
 * Code has moved the session's tasks into its team's folder, the calls go there, the conversation
 * reads that folder whole once, and its watchers are moved with it (and woken, so subscribers
 * catch up). After the first move the list stays where it is: Claude Code does not move a team's
 * list again (after `/clear` it notes it in the new session's `.session-list` and goes on with
 * it). Each call while on the session's own folder costs one `lstat` (of the team's folder).
 * @throws TypeError when `env` names no session (CLAUDE_CODE_SESSION_ID unset, or
 * CLAUDE_CODE_TASK_LIST_ID set): there is nothing to follow.
 */
export function claudeSessionList(
  env: Record<string, string | undefined>,
  home: string,
  log: Logger | undefined,
): ListHandle {
  const found = claudeTaskFolder(env, home);
  if (found.sessionId === undefined || found.listId === undefined) {
    throw new TypeError('claudeSessionList: expected CLAUDE_CODE_SESSION_ID without CLAUDE_CODE_TASK_LIST_ID');
  }
  const { dataDir } = found;
  const own = claudeListId(found.sessionId);
  const list: Followed = {
    current: { id: found.listId, handle: folderList(dataDir, found.listId, log) },
    reload: false,
    released: false,
    watchers: new Set<Watcher>(),
    follow() {
      if (list.released || list.current.id !== own) return;
      const next = claudeTaskFolder(env, home).listId;
      if (next !== undefined && next !== list.current.id) moveTo(list, next, dataDir, log);
    },
  };
  return listHandle({
    get id() {
      return list.current.id;
    },
    tasks: followedTasks(list),
    messages: followedMessages(list),
    todo: followedStore(list, 'todo'),
    todoWrite: followedStore(list, 'todo_write'),
    watch(onChange) {
      const watcher: Watcher = { onChange, stop: list.current.handle.watch(onChange) };
      list.watchers.add(watcher);
      return () => {
        watcher.stop();
        list.watchers.delete(watcher);
      };
    },
    release() {
      if (list.released) return;
      list.released = true;
      for (const watcher of list.watchers) watcher.stop();
      list.watchers.clear();
      list.current.handle.release();
    },
  });
}
