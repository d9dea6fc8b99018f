/**
 * Where a list lives under a data dir: the folder name a list id maps to (hostile ids refused),
 * and Claude Code's own list ids.
 */
import { closeSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ListIdError } from './errors.js';

/** The longest file name most file systems take, in bytes (ext4, tmpfs, APFS, NTFS: 255). */
const MAX_FILE_NAME_BYTES = 255;

const SAFE = /^[A-Za-z0-9_-]$/;

/**
 * The folder name a list id maps to: characters other than letters, digits, `_` and `-` (and a
 * leading dot) are percent-encoded, so distinct ids never share a folder. An id of Claude Code's
 * (only `[A-Za-z0-9_-]`) is its own folder name, as in Claude Code's task folder.
 * @throws ListIdError for an id that would escape the data dir: empty, `.` or `..`, with a path
 * separator or NUL, or absolute; or longer than 200 characters or 200 bytes encoded.
 */
export function listFolderName(id: string): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..' || /[/\\\0]/.test(id) || isAbsolute(id)) {
    throw new ListIdError(
      `list id ${JSON.stringify(String(id).slice(0, 80))}: expected a name without path separators, NUL, "." or "..", received one that would escape the data dir`,
    );
  }
  if (id.length > 200) throw new ListIdError(`list id: expected at most 200 characters, received ${id.length}`);
  let name = '';
  for (const char of id) {
    if (SAFE.test(char) || (char === '.' && name !== '')) name += char;
    else
      name += [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  // Beside the folder go a v1 list file and its backup (`<name>.json.backup`): leave them room.
  const bytes = Buffer.byteLength(name) + 32;
  if (bytes > MAX_FILE_NAME_BYTES) {
    throw new ListIdError(
      `list id: expected a name whose folder name fits in ${MAX_FILE_NAME_BYTES} bytes (with room for a backup's suffix), received one of ${bytes} bytes (${id.length} characters)`,
    );
  }
  return name;
}

/** The path of a list's folder, checked to be inside the data dir. @throws ListIdError */
export function listFolderPath(dataDir: string, id: string): string {
  const dir = resolve(dataDir);
  const path = join(dir, listFolderName(id));
  const rel = relative(dir, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new ListIdError(`list id ${JSON.stringify(id.slice(0, 80))} escapes the data dir`);
  }
  return path;
}

/**
 * A list id as Claude Code makes one: every character outside `[a-zA-Z0-9_-]` becomes `-`.
 *
 * @example claudeListId('my team/alpha') // 'my-team-alpha'
 */
export function claudeListId(raw: string): string {
  return raw.replace(/[^a-zA-Z0-9_-]/g, '-');
}

/** A session id as Claude Code makes them: a UUID. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The note a session team's folder keeps of the list its session goes on using (Claude Code's `.session-list`). */
const SESSION_LIST_FILE = '.session-list';

/** The longest `.session-list` Claude Code reads, in bytes. */
const MAX_SESSION_LIST_BYTES = 64;

/** True for a list id Claude Code takes from a `.session-list`: a session id, or a session team's name. */
function isSessionListId(id: string): boolean {
  const rest = id.startsWith('session-') ? id.slice('session-'.length) : undefined;
  return UUID.test(id) || (rest !== undefined && (UUID.test(rest) || /^[0-9a-f]{8}$/i.test(rest)));
}

/** True when `path` is a directory itself (not a link to one). */
function isPlainDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when the folder holds a task file (`<id>.json`), as a list Claude Code wrote to does. */
function holdsTasks(folder: string): boolean {
  try {
    return readdirSync(folder).some((name) => /^[1-9][0-9]*\.json$/.test(name));
  } catch {
    return false;
  }
}

/**
 * The list id a session team's folder notes in its `.session-list` (written by Claude Code on
 * `/clear`: the cleared session's list, which the new session goes on using), or undefined when
 * there is none that Claude Code would take: not a regular file (a link, a FIFO, which an open
 * would wait on), longer than Claude Code reads, or not a session's list id.
 */
function notedList(folder: string): string | undefined {
  const path = join(folder, SESSION_LIST_FILE);
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > MAX_SESSION_LIST_BYTES) return undefined;
    const buffer = Buffer.alloc(MAX_SESSION_LIST_BYTES + 1);
    const fd = openSync(path, 'r');
    let length: number;
    try {
      length = readSync(fd, buffer, 0, buffer.length, 0);
    } finally {
      closeSync(fd);
    }
    if (length > MAX_SESSION_LIST_BYTES) return undefined;
    const id = buffer.toString('utf8', 0, length).trim();
    return isSessionListId(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The list Claude Code 2.1.332 uses for session `sessionId` (not sanitised) in the task folder
 * `dataDir`, the leader of its own session: once it made the session's implicit team (agent
 * teams), whose folder `session-<first 8 characters of the session id>` the session's own folder
 * was renamed into, the team's folder when it holds tasks; else the list that folder's
 * `.session-list` notes (after a `/clear`: the cleared session's, which Claude Code goes on
 * using); else the session's own folder when it holds tasks; else the team's. Without the team's
 * folder (no agent teams, or a session id that is not a UUID), the session's own folder.
 */
function sessionList(dataDir: string, sessionId: string): string {
  const own = claudeListId(sessionId);
  if (!UUID.test(sessionId)) return own;
  const team = `session-${sessionId.slice(0, 8)}`;
  const teamFolder = join(dataDir, team);
  if (!isPlainDirectory(teamFolder)) return own;
  if (holdsTasks(teamFolder)) return team;
  const noted = notedList(teamFolder);
  if (noted !== undefined) return claudeListId(noted);
  return holdsTasks(join(dataDir, own)) ? own : team;
}

/**
 * Claude Code's task folder and the list id it uses for the session, from `env` and (for a
 * session of agent teams) what its folder holds: the folder is `$CLAUDE_CONFIG_DIR/tasks` or
 * `~/.claude/tasks`; the id is `CLAUDE_CODE_TASK_LIST_ID`, else the session's list, found from
 * `CLAUDE_CODE_SESSION_ID` (Claude Code passes it to the stdio servers it starts) as Claude Code
 * 2.1.332 finds it: the session's own folder, or, once Claude Code made the session's team and
 * renamed that folder `session-<first 8 characters of the id>`, the team's folder (or the list its
 * `.session-list` notes, after a `/clear`). Sanitised as Claude Code does; `listId` is undefined
 * when neither variable is set. `sessionId` is the session the list was found from (undefined
 * when `CLAUDE_CODE_TASK_LIST_ID` names it): ask again later to follow the session's folder when
 * Claude Code moves it.
 */
export function claudeTaskFolder(
  env: Record<string, string | undefined>,
  home: string,
): { dataDir: string; listId: string | undefined; sessionId: string | undefined } {
  const configHome = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
  const dataDir = join(configHome, 'tasks');
  if (env.CLAUDE_CODE_TASK_LIST_ID) {
    return { dataDir, listId: claudeListId(env.CLAUDE_CODE_TASK_LIST_ID), sessionId: undefined };
  }
  const sessionId = env.CLAUDE_CODE_SESSION_ID || undefined;
  return { dataDir, listId: sessionId ? sessionList(dataDir, sessionId) : undefined, sessionId };
}
