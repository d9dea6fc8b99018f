// --claude-tasks: raider's task tools on Claude Code's own task folder, so Claude Code's task panel
// shows them and what Claude Code (or a teammate) wrote there shows in task_list.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { readOptions } from '../src/options.js';
import { stdioClient, textOf } from './helpers.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

// A list as Claude Code writes it (its record shape, ids as strings, its statuses, a high-water
// mark above the highest task, the empty .lock file).
const CLAUDE_TASKS = {
  '1.json': {
    id: '1',
    subject: 'Set up CI',
    description: 'GitHub Actions for lint and test',
    activeForm: 'Setting up CI',
    owner: 'main',
    status: 'completed',
    blocks: ['2'],
    blockedBy: [],
    metadata: { origin: 'claude-code', labels: ['infra'] },
  },
  '2.json': {
    id: '2',
    subject: 'Deploy preview',
    description: '',
    status: 'in_progress',
    blocks: [],
    blockedBy: ['1'],
  },
  '4.json': { id: '4', subject: 'Write docs', description: 'README', status: 'pending', blocks: [], blockedBy: [] },
};

async function claudeFolder(sessionId: string) {
  const config = await mkdtemp(join(tmpdir(), 'raider-claude-config-'));
  const folder = join(config, 'tasks', sessionId.replace(/[^a-zA-Z0-9_-]/g, '-'));
  mkdirSync(folder, { recursive: true });
  for (const [name, record] of Object.entries(CLAUDE_TASKS))
    writeFileSync(join(folder, name), JSON.stringify(record, null, 2));
  writeFileSync(join(folder, '.highwatermark'), '6');
  writeFileSync(join(folder, '.lock'), '');
  return { config, folder };
}

describe('--claude-tasks', () => {
  it('lists, updates and extends a list Claude Code wrote, keeping every field it wrote; ids go on above its mark', async () => {
    const sessionId = 'c0ffee.42/resume';
    const { config, folder } = await claudeFolder(sessionId);
    const { client } = await stdioClient(['--claude-tasks'], undefined, {
      CLAUDE_CONFIG_DIR: config,
      CLAUDE_CODE_SESSION_ID: sessionId,
    });
    open.push(client);
    expect(textOf(await client.callTool({ name: 'task_list', arguments: {} }))).toBe(
      '#1 [completed] Set up CI (main)\n#2 [in_progress] Deploy preview\n#4 [pending] Write docs',
    );
    expect(
      textOf(await client.callTool({ name: 'task_update', arguments: { taskId: '2', status: 'completed' } })),
    ).toBe('Updated task #2 status');
    expect(textOf(await client.callTool({ name: 'task_update', arguments: { taskId: '1', owner: 'raider' } }))).toBe(
      'Updated task #1 owner',
    );
    expect(
      textOf(await client.callTool({ name: 'task_create', arguments: { subject: 'Announce', description: '' } })),
    ).toBe('Task #7 created successfully: Announce');
    const read = (name: string) => JSON.parse(readFileSync(join(folder, name), 'utf8'));
    expect(read('1.json')).toEqual({ ...CLAUDE_TASKS['1.json'], owner: 'raider' });
    expect(read('2.json')).toEqual({ ...CLAUDE_TASKS['2.json'], status: 'completed' });
    expect(read('4.json')).toEqual(CLAUDE_TASKS['4.json']);
    expect(read('7.json')).toEqual({
      id: '7',
      subject: 'Announce',
      description: '',
      status: 'pending',
      blocks: [],
      blockedBy: [],
    });
    // Claude Code's reader takes every *.json not starting with a dot as a task: raider's own files are hidden.
    expect(
      readdirSync(folder)
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .sort(),
    ).toEqual(['1.json', '2.json', '4.json', '7.json']);
    // A task Claude Code adds while raider runs shows at raider's next call.
    writeFileSync(
      join(folder, '8.json'),
      JSON.stringify({
        id: '8',
        subject: 'From the panel',
        description: '',
        status: 'pending',
        blocks: [],
        blockedBy: [],
      }),
    );
    await expect
      .poll(async () => textOf(await client.callTool({ name: 'task_get', arguments: { taskId: '8' } })), {
        timeout: 5000,
      })
      .toContain('Task #8: From the panel');
    expect(existsSync(join(folder, '.lock.lock'))).toBe(false);
  }, 30_000);

  it('takes the folder and the list from Claude Code, sanitised as Claude Code does; --list wins; --data-dir beside it is refused', () => {
    const env = { CLAUDE_CONFIG_DIR: '/home/me/.claude-alt', CLAUDE_CODE_SESSION_ID: 'ab.cd/ef' };
    expect(readOptions(['--claude-tasks'], env)).toMatchObject({
      claudeTasks: true,
      dataDir: '/home/me/.claude-alt/tasks',
      list: 'ab-cd-ef',
    });
    expect(readOptions([], { ...env, RAIDER_CLAUDE_TASKS: '1', CLAUDE_CODE_TASK_LIST_ID: 'team:alpha' })).toMatchObject(
      { list: 'team-alpha' },
    );
    expect(readOptions(['--claude-tasks'], { HOME: '/home/me', CLAUDE_CODE_SESSION_ID: 's1' })).toMatchObject({
      dataDir: '/home/me/.claude/tasks',
      list: 's1',
    });
    expect(readOptions(['--claude-tasks', '--list', 'mine'], env)).toMatchObject({ list: 'mine' });
    expect(() => readOptions(['--claude-tasks'], { HOME: '/home/me' })).toThrow(
      '--claude-tasks: expected CLAUDE_CODE_TASK_LIST_ID or CLAUDE_CODE_SESSION_ID in the environment (Claude Code sets CLAUDE_CODE_SESSION_ID for the servers it starts), or --list, received none',
    );
    expect(() => readOptions(['--claude-tasks', '--data-dir', '/x'], env)).toThrow(
      "--claude-tasks: expected no --data-dir beside it (it keeps lists in Claude Code's task folder), received both",
    );
  });
});
