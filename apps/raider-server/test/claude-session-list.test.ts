// --claude-tasks follows the session's folder as Claude Code 2.1.332 moves it, on real folders
// laid out as Claude Code leaves them: the rename of `tasks/<session id>/` into the session's team
// folder `tasks/session-<first 8>/` (agent teams) while the server runs, and, after /clear, the new
// session's team folder whose `.session-list` notes the list Claude Code goes on using.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { stdioClient, textOf } from './helpers.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

const SESSION = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';
const TEAM = 'session-3f2a9c1e';
/** The session Claude Code moves to on /clear of SESSION, and its team's folder. */
const AFTER_CLEAR = '7d41e0b2-0c9a-4d3e-8f1a-2b3c4d5e6f70';
const AFTER_CLEAR_TEAM = 'session-7d41e0b2';

/** A task file as Claude Code writes it. */
const claudeTask = (id: string, subject: string) =>
  JSON.stringify({ id, subject, description: '', status: 'pending', blocks: [], blockedBy: [] }, null, 2);

/** A config home whose tasks/ holds the folders named, with the files given. */
async function configHome(folders: Record<string, Record<string, string>>): Promise<string> {
  const config = await mkdtemp(join(tmpdir(), 'raider-claude-config-'));
  for (const [name, files] of Object.entries(folders)) {
    mkdirSync(join(config, 'tasks', name), { recursive: true });
    for (const [file, content] of Object.entries(files)) writeFileSync(join(config, 'tasks', name, file), content);
  }
  return config;
}

async function claudeTasksServer(config: string, env: Record<string, string>) {
  const { client } = await stdioClient(['--claude-tasks'], undefined, { CLAUDE_CONFIG_DIR: config, ...env });
  open.push(client);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    textOf(await client.callTool({ name, arguments: args }));
  return { client, call };
}

const taskFiles = (folder: string) =>
  existsSync(folder) ? readdirSync(folder).filter((name) => /^\d+\.json$/.test(name)) : [];

describe('--claude-tasks follows the folder Claude Code uses', () => {
  it("follows the session's folder when Claude Code renames it into the team's (agent teams) while the server runs", async () => {
    const config = await configHome({
      [SESSION]: { '1.json': claudeTask('1', 'Before the team'), '.highwatermark': '1', '.lock': '' },
    });
    const tasks = join(config, 'tasks');
    const { call } = await claudeTasksServer(config, { CLAUDE_CODE_SESSION_ID: SESSION });
    expect(await call('task_list')).toBe('#1 [pending] Before the team');

    // Claude Code makes the session's implicit team: rename(tasks/<session id>, tasks/session-<8>).
    renameSync(join(tasks, SESSION), join(tasks, TEAM));
    expect(await call('task_create', { subject: 'After the team', description: '' })).toBe(
      'Task #2 created successfully: After the team',
    );
    expect(JSON.parse(readFileSync(join(tasks, TEAM, '2.json'), 'utf8'))).toMatchObject({
      id: '2',
      subject: 'After the team',
    });
    // The old path is not made again: Claude Code's panel shows the team's folder only.
    expect(existsSync(join(tasks, SESSION))).toBe(false);
    expect(await call('task_list')).toBe('#1 [pending] Before the team\n#2 [pending] After the team');

    // A task Claude Code (or a teammate) writes into the team's folder shows at the next call.
    writeFileSync(join(tasks, TEAM, '3.json'), claudeTask('3', 'From a teammate'));
    await expect.poll(() => call('task_get', { taskId: '3' }), { timeout: 5000 }).toContain('Task #3: From a teammate');
    expect(await call('task_update', { taskId: '1', status: 'completed' })).toBe('Updated task #1 status');
    expect(JSON.parse(readFileSync(join(tasks, TEAM, '1.json'), 'utf8'))).toMatchObject({ status: 'completed' });
    expect(existsSync(join(tasks, SESSION))).toBe(false);
  }, 60_000);

  it("starts on the team's folder once there is one, and after /clear on the list the new session's .session-list notes", async () => {
    const config = await configHome({
      [TEAM]: { '1.json': claudeTask('1', 'Kept across /clear'), '.highwatermark': '1', '.lock': '' },
      // What Claude Code leaves on /clear: the new session's team folder, noting the cleared list.
      [AFTER_CLEAR_TEAM]: { '.session-list': TEAM },
    });
    const tasks = join(config, 'tasks');
    // A server Claude Code starts for the old session (a restart) and one for the new session.
    const before = await claudeTasksServer(config, { CLAUDE_CODE_SESSION_ID: SESSION });
    const after = await claudeTasksServer(config, { CLAUDE_CODE_SESSION_ID: AFTER_CLEAR });
    expect(await before.call('task_list')).toBe('#1 [pending] Kept across /clear');
    expect(await after.call('task_list')).toBe('#1 [pending] Kept across /clear');
    expect(await after.call('task_create', { subject: 'After /clear', description: '' })).toBe(
      'Task #2 created successfully: After /clear',
    );
    await expect.poll(() => before.call('task_get', { taskId: '2' }), { timeout: 5000 }).toContain('After /clear');
    expect(taskFiles(join(tasks, TEAM))).toEqual(['1.json', '2.json']);
    expect(readdirSync(join(tasks, AFTER_CLEAR_TEAM))).toEqual(['.session-list']);
    expect(existsSync(join(tasks, SESSION))).toBe(false);
    expect(existsSync(join(tasks, AFTER_CLEAR))).toBe(false);
  }, 60_000);

  it('never moves a list that CLAUDE_CODE_TASK_LIST_ID or --list names', async () => {
    const config = await configHome({
      shared: { '1.json': claudeTask('1', 'Shared') },
      [TEAM]: { '1.json': claudeTask('1', "The team's") },
    });
    const named = await claudeTasksServer(config, {
      CLAUDE_CODE_SESSION_ID: SESSION,
      CLAUDE_CODE_TASK_LIST_ID: 'shared',
    });
    expect(await named.call('task_list')).toBe('#1 [pending] Shared');
    const { client } = await stdioClient(['--claude-tasks', '--list', 'shared'], undefined, {
      CLAUDE_CONFIG_DIR: config,
      CLAUDE_CODE_SESSION_ID: SESSION,
    });
    open.push(client);
    expect(textOf(await client.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Shared');
  }, 60_000);
});
