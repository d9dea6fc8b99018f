/**
 * The files of a list folder besides the tasks' (`<id>.json`): Claude Code's lock and high-water
 * mark, and raider's own, hidden (a leading dot), so Claude Code's reader and its reset pass them by.
 */
export const FOLDER_FILES = {
  /** The list lock (proper-lockfile's lock on it is the folder `.lock.lock`), as Claude Code takes it. */
  lock: '.lock',
  /** The highest id ever handed out, as Claude Code keeps it. */
  highWaterMark: '.highwatermark',
  /** raider's change feed: one line per committed change. */
  journal: '.raider-changes.jsonl',
  /** The `todo` family's snapshot. */
  todo: '.raider-todo.json',
  /** todo_write's last list. */
  todoWrite: '.raider-todo-write.json',
  /** The agents' inboxes (`.messages/<inbox>/`, one folder per agent): `TaskFolder.messages`. */
  messages: '.messages',
  /** The list's questions (`.questions/<n>.json`, one file per question `ask_<n>`): `TaskFolder.questions`. */
  questions: '.questions',
} as const;
