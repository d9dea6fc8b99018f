/**
 * Where a list lives under a data dir: the folder name a list id maps to (hostile ids refused),
 * and Claude Code's own list ids.
 */
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

/**
 * Claude Code's task folder and the list id it uses for the session, from `env`: the folder is
 * `$CLAUDE_CONFIG_DIR/tasks` or `~/.claude/tasks`; the id is `CLAUDE_CODE_TASK_LIST_ID`, else
 * `CLAUDE_CODE_SESSION_ID` (Claude Code passes it to the stdio servers it starts), sanitised as
 * Claude Code does; `undefined` when neither is set.
 */
export function claudeTaskFolder(
  env: Record<string, string | undefined>,
  home: string,
): { dataDir: string; listId: string | undefined } {
  const configHome = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
  const raw = env.CLAUDE_CODE_TASK_LIST_ID || env.CLAUDE_CODE_SESSION_ID;
  return { dataDir: join(configHome, 'tasks'), listId: raw ? claudeListId(raw) : undefined };
}
