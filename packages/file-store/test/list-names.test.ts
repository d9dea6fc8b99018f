// Which list Claude Code 2.1.332 uses for a session, found from real folders laid out as Claude Code
// leaves them: the session's own folder, the folder of its implicit team (agent teams) after the
// rename, and a team's folder noting the cleared session's list in `.session-list` after /clear.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeListId, claudeTaskFolder, listFolderName } from '../src/list-names.js';
import { tempDir } from './cleanup.js';

const SESSION = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';
const TEAM = 'session-3f2a9c1e';
/** The session after a /clear of SESSION, and its team. */
const CLEARED_INTO = '7d41e0b2-0c9a-4d3e-8f1a-2b3c4d5e6f70';
const CLEARED_TEAM = 'session-7d41e0b2';

const task = (id: string) =>
  JSON.stringify({ id, subject: `Task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [] }, null, 2);

/** A config home with the folders named (each with the files given) under tasks/. */
function configHome(folders: Record<string, Record<string, string>>): string {
  const config = tempDir('raider-claude-config-');
  for (const [name, files] of Object.entries(folders)) {
    mkdirSync(join(config, 'tasks', name), { recursive: true });
    for (const [file, content] of Object.entries(files)) writeFileSync(join(config, 'tasks', name, file), content);
  }
  return config;
}

const listOf = (config: string, sessionId = SESSION) =>
  claudeTaskFolder({ CLAUDE_CONFIG_DIR: config, CLAUDE_CODE_SESSION_ID: sessionId }, '/nowhere').listId;

describe('claudeListId and listFolderName', () => {
  it("sanitise as Claude Code does; an id of Claude Code's is its own folder name", () => {
    expect(claudeListId('my team/alpha')).toBe('my-team-alpha');
    expect(listFolderName(claudeListId('c0ffee.42/resume'))).toBe('c0ffee-42-resume');
  });
});

describe('claudeTaskFolder', () => {
  it('takes CLAUDE_CODE_TASK_LIST_ID first (no session to follow), else the session id; nothing without either', () => {
    expect(
      claudeTaskFolder({ CLAUDE_CODE_TASK_LIST_ID: 'team:alpha', CLAUDE_CODE_SESSION_ID: SESSION }, '/home/me'),
    ).toEqual({ dataDir: '/home/me/.claude/tasks', listId: 'team-alpha', sessionId: undefined });
    expect(claudeTaskFolder({ CLAUDE_CODE_SESSION_ID: 'ab.cd/ef', CLAUDE_CONFIG_DIR: '/c' }, '/home/me')).toEqual({
      dataDir: '/c/tasks',
      listId: 'ab-cd-ef',
      sessionId: 'ab.cd/ef',
    });
    expect(claudeTaskFolder({}, '/home/me')).toEqual({
      dataDir: '/home/me/.claude/tasks',
      listId: undefined,
      sessionId: undefined,
    });
  });

  it("is the session's own folder while Claude Code made no team for it (it may not exist yet)", () => {
    expect(listOf(configHome({}))).toBe(SESSION);
    expect(listOf(configHome({ [SESSION]: { '1.json': task('1') } }))).toBe(SESSION);
    // Another session's team is not this one's.
    expect(listOf(configHome({ 'session-00000000': { '1.json': task('1') } }))).toBe(SESSION);
  });

  it("is the team's folder once Claude Code renamed the session's folder into it (agent teams)", () => {
    expect(listOf(configHome({ [TEAM]: { '1.json': task('1'), '.highwatermark': '1', '.lock': '' } }))).toBe(TEAM);
    // A team made before any task: its folder is empty, and it is the list.
    expect(listOf(configHome({ [TEAM]: {} }))).toBe(TEAM);
    // A folder for the session id made again after the rename (an empty one) does not count.
    expect(listOf(configHome({ [TEAM]: { '1.json': task('1') }, [SESSION]: {} }))).toBe(TEAM);
    // The session's own folder still holding tasks beside an empty team folder: that one.
    expect(listOf(configHome({ [TEAM]: {}, [SESSION]: { '1.json': task('1') } }))).toBe(SESSION);
  });

  it("after /clear: the new session's team folder notes the cleared session's list in .session-list, and that list goes on", () => {
    const config = configHome({
      [TEAM]: { '1.json': task('1'), '2.json': task('2') },
      [CLEARED_TEAM]: { '.session-list': TEAM },
    });
    expect(listOf(config, CLEARED_INTO)).toBe(TEAM);
    // The old session (a server that never learnt of the /clear) is on the same list.
    expect(listOf(config, SESSION)).toBe(TEAM);
    // The cleared session was not in a team: its own folder is noted.
    expect(listOf(configHome({ [CLEARED_TEAM]: { '.session-list': `${SESSION}\n` } }), CLEARED_INTO)).toBe(SESSION);
    // Tasks in the new team's folder win over the note.
    expect(listOf(configHome({ [CLEARED_TEAM]: { '.session-list': TEAM, '1.json': task('1') } }), CLEARED_INTO)).toBe(
      CLEARED_TEAM,
    );
  });

  it('passes by a .session-list Claude Code would not take: not a list id, too long, a link, a folder, a FIFO', () => {
    for (const note of ['../../etc', 'team-alpha', `session-${'a'.repeat(60)}`, '']) {
      expect(listOf(configHome({ [CLEARED_TEAM]: { '.session-list': note } }), CLEARED_INTO)).toBe(CLEARED_TEAM);
    }
    expect(listOf(configHome({ [CLEARED_TEAM]: { '.session-list': `${TEAM}${' '.repeat(60)}` } }), CLEARED_INTO)).toBe(
      CLEARED_TEAM,
    );
    const linked = configHome({ [CLEARED_TEAM]: {}, elsewhere: { note: TEAM } });
    symlinkSync(join(linked, 'tasks', 'elsewhere', 'note'), join(linked, 'tasks', CLEARED_TEAM, '.session-list'));
    expect(listOf(linked, CLEARED_INTO)).toBe(CLEARED_TEAM);
    const folder = configHome({ [CLEARED_TEAM]: {} });
    mkdirSync(join(folder, 'tasks', CLEARED_TEAM, '.session-list'));
    expect(listOf(folder, CLEARED_INTO)).toBe(CLEARED_TEAM);
    if (process.platform !== 'win32') {
      const fifo = configHome({ [CLEARED_TEAM]: {} });
      execFileSync('mkfifo', [join(fifo, 'tasks', CLEARED_TEAM, '.session-list')]);
      expect(listOf(fifo, CLEARED_INTO)).toBe(CLEARED_TEAM);
    }
  });

  it("ignores a team folder that is a link, and a session id that is not a UUID (Claude Code's are)", () => {
    const config = configHome({ real: { '1.json': task('1') } });
    symlinkSync(join(config, 'tasks', 'real'), join(config, 'tasks', TEAM));
    expect(listOf(config)).toBe(SESSION);
    const notUuid = configHome({ 'session-c0ffee-4': { '1.json': task('1') } });
    expect(listOf(notUuid, 'c0ffee-42/resume')).toBe('c0ffee-42-resume');
  });
});
