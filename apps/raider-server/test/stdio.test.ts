import { spawn } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, stdioClient, textOf } from './helpers.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function start(args: string[], elicit?: Parameters<typeof stdioClient>[1], env?: Record<string, string>) {
  const { client } = await stdioClient(args, elicit, env);
  open.push(client);
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

describe('raider-server over stdio', () => {
  it('tasks family with raider names: every tool end to end', async () => {
    const client = await start([]);
    expect(await names(client)).toEqual(['task_create', 'task_update', 'task_list', 'task_get', 'ask_user']);
    const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
    expect(textOf(await call('task_create', { subject: 'Design', description: 'the API' }))).toBe(
      'Task #1 created successfully: Design',
    );
    await call('task_create', { subject: 'Build', description: 'it' });
    expect(textOf(await call('task_update', { taskId: '2', addBlockedBy: ['1'], status: 'in_progress' }))).toBe(
      'Updated task #2 status, blockedBy',
    );
    expect(textOf(await call('task_list'))).toBe('#1 [pending] Design\n#2 [in_progress] Build [blocked by #1]');
    expect(textOf(await call('task_get', { taskId: '1' }))).toBe(
      'Task #1: Design\nStatus: pending\nDescription: the API\nBlocks: #2',
    );
    expect(client.getInstructions()).toContain('task_create');
  });

  it('tasks family with Claude Code names', async () => {
    const client = await start(['--names', 'claude']);
    expect(await names(client)).toEqual(['TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'AskUserQuestion']);
    expect(textOf(await client.callTool({ name: 'TaskCreate', arguments: { subject: 'A', description: 'b' } }))).toBe(
      'Task #1 created successfully: A',
    );
    expect(textOf(await client.callTool({ name: 'TaskUpdate', arguments: { taskId: '1', status: 'completed' } }))).toBe(
      'Updated task #1 status',
    );
    expect(textOf(await client.callTool({ name: 'TaskList', arguments: {} }))).toBe('#1 [completed] A');
    expect(textOf(await client.callTool({ name: 'TaskGet', arguments: { taskId: '1' } }))).toContain('Task #1: A');
    expect(client.getInstructions()).toContain('TaskCreate');
  });

  it('todo_write family: by RAIDER_ENABLE_TASKS=0, and as TodoWrite under Claude names', async () => {
    const client = await start([], undefined, { RAIDER_ENABLE_TASKS: '0' });
    expect(await names(client)).toEqual(['todo_write', 'ask_user']);
    const result = await client.callTool({
      name: 'todo_write',
      arguments: { todos: [{ content: 'Run the tests', status: 'in_progress' }] },
    });
    expect(textOf(result)).toBe('1 todo (1 in_progress)\n1. [in_progress] Run the tests');
    const claude = await start(['--family', 'todo_write', '--names', 'claude']);
    expect(await names(claude)).toEqual(['TodoWrite', 'AskUserQuestion']);
    expect(
      textOf(
        await claude.callTool({
          name: 'TodoWrite',
          arguments: { todos: [{ content: 'A', status: 'pending', activeForm: 'Doing A' }] },
        }),
      ),
    ).toBe('1 todo (1 pending)\n1. [pending] A');
  });

  it('todo family, both name modes', async () => {
    for (const mode of ['raider', 'claude']) {
      const client = await start(['--family', 'todo', '--names', mode]);
      expect((await names(client))[0]).toBe('todo');
      expect(textOf(await client.callTool({ name: 'todo', arguments: { action: 'create', subject: 'Parse' } }))).toBe(
        'Created #1: Parse (pending)',
      );
      expect(textOf(await client.callTool({ name: 'todo', arguments: { action: 'list' } }))).toBe('[pending] #1 Parse');
      expect(client.getInstructions()).toContain('Keep exactly one task in_progress');
    }
  });

  it('ask_user with an eliciting client, and the refusal without one', async () => {
    const asked: string[] = [];
    const client = await start([], (message) => {
      asked.push(message);
      return { action: 'accept', content: { choice: 'yes' } };
    });
    const answer = await client.callTool({
      name: 'ask_user',
      arguments: { question: 'Ship it?', options: ['yes', 'no'] },
    });
    expect(textOf(answer)).toBe('yes');
    expect(asked).toEqual(['Ship it?']);
    const work = await client.readResource({ uri: 'raider://work' });
    expect(JSON.parse((work.contents[0] as { text: string }).text)).toEqual([
      { id: 'ask_1', kind: 'ask', recipient: 'main', description: 'Ship it?', status: 'completed', report: 'yes' },
    ]);
    const plain = await start([]);
    const refused = await plain.callTool({ name: 'ask_user', arguments: { question: 'Anyone?' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Nobody can answer questions in this session/);
  });

  const QUESTION = {
    question: 'Which test runner?',
    header: 'Tests',
    options: [
      { label: 'Vitest', description: 'fast' },
      { label: 'Jest', description: 'classic' },
    ],
  };

  it('AskUserQuestion under Claude names, answered in one form', async () => {
    const client = await start(['--names', 'claude'], () => ({ action: 'accept', content: { q1: 'Vitest' } }));
    const result = await client.callTool({
      name: 'AskUserQuestion',
      arguments: {
        questions: [
          {
            question: 'Which test runner?',
            header: 'Tests',
            options: [
              { label: 'Vitest', description: 'fast' },
              { label: 'Jest', description: 'classic' },
            ],
          },
        ],
      },
    });
    // The text alone: Claude Code would show its model structuredContent instead.
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'Your questions have been answered: "Which test runner?"="Vitest". You can now continue with these answers in mind.',
        },
      ],
    });
    const typed = await start(['--names', 'claude'], () => ({
      action: 'accept',
      content: { q1: 'Vitest', q1_other: 'Node test' },
    }));
    expect(textOf(await typed.callTool({ name: 'AskUserQuestion', arguments: { questions: [QUESTION] } }))).toBe(
      'The user answered: "Which test runner?"="Node test". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.',
    );
  });

  it('what the model reads is the text alone in every family; --structured-output brings structured results and output schemas back', async () => {
    // Claude Code shows its model the JSON of structuredContent when a result carries it.
    const calls: [string[], string, Record<string, unknown>, string][] = [
      [['--names', 'claude'], 'TaskCreate', { subject: 'Ship', description: '' }, 'Task #1 created successfully: Ship'],
      [[], 'task_list', {}, 'No tasks found'],
      [['--family', 'todo'], 'todo', { action: 'create', subject: 'Plan' }, 'Created #1: Plan (pending)'],
      [
        ['--family', 'todo_write'],
        'todo_write',
        { todos: [{ content: 'A', status: 'pending' }] },
        '1 todo (1 pending)\n1. [pending] A',
      ],
    ];
    for (const [args, name, toolArgs, text] of calls) {
      const plain = await start(args);
      for (const tool of (await plain.listTools()).tools) expect(tool).not.toHaveProperty('outputSchema');
      expect(await plain.callTool({ name, arguments: toolArgs })).toEqual({ content: [{ type: 'text', text }] });
      const structured = await start([...args, '--structured-output']);
      const tool = (await structured.listTools()).tools.find((listed) => listed.name === name);
      expect(tool?.outputSchema?.type).toBe('object');
      const result = await structured.callTool({ name, arguments: toolArgs });
      expect(result.content).toEqual([{ type: 'text', text }]);
      expect(result.structuredContent).toBeTypeOf('object');
    }
  }, 60_000);

  it("under Claude names, Claude Code's repaired shapes and a numeric taskId are taken, and TaskGet lists only open blockers", async () => {
    const client = await start(['--names', 'claude']);
    const calls: [string, Record<string, unknown>, string][] = [
      ['TaskCreate', { title: 'Design', content: 'the API' }, 'Task #1 created successfully: Design'],
      ['TaskCreate', { task: 'Build it' }, 'Task #2 created successfully: Build it'],
      ['TaskUpdate', { id: 2, addBlockedBy: ['1'] }, 'Updated task #2 blockedBy'],
      ['TaskGet', { taskId: 2 }, 'Task #2: Build it\nStatus: pending\nDescription: Build it\nBlocked by: #1'],
      ['TaskUpdate', { task_id: '1', status: 'completed' }, 'Updated task #1 status'],
      ['TaskGet', { taskId: '2' }, 'Task #2: Build it\nStatus: pending\nDescription: Build it'],
    ];
    for (const [name, args, text] of calls) expect(textOf(await client.callTool({ name, arguments: args }))).toBe(text);
  });

  it('--always-load marks every tool for Claude Code', async () => {
    const client = await start(['--always-load', '--names', 'claude']);
    const tools = (await client.listTools()).tools;
    expect(
      tools.filter((tool) => tool.name.startsWith('Task')).map((tool) => tool._meta?.['anthropic/alwaysLoad']),
    ).toEqual([true, true, true, true]);
  });

  it('a subscription to raider://tasks receives an update on every change', async () => {
    const client = await start([]);
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['raider://tasks', 'raider://work']);
    await client.subscribeResource({ uri: 'raider://tasks' });
    await client.callTool({ name: 'task_create', arguments: { subject: 'A', description: '' } });
    await client.callTool({ name: 'task_update', arguments: { taskId: '1', status: 'completed' } });
    await client.callTool({ name: 'task_list', arguments: {} });
    await expect.poll(() => updates.length).toBe(2);
    expect(updates).toEqual(['raider://tasks', 'raider://tasks']);
    const read = await client.readResource({ uri: 'raider://tasks' });
    const state = JSON.parse((read.contents[0] as { text: string }).text);
    expect(state.family).toBe('tasks');
    expect(state.tasks).toEqual([expect.objectContaining({ id: '1', content: 'A', status: 'completed' })]);
    await client.unsubscribeResource({ uri: 'raider://tasks' });
    await client.callTool({ name: 'task_create', arguments: { subject: 'B', description: '' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(updates).toHaveLength(2);
  });

  it('a message past the stdio transport limit ends the server with a log line that says so, exit 1', async () => {
    const child = spawn(process.execPath, [CLI], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.stdin.on('error', () => {});
    const chunk = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 12; i += 1) child.stdin.write(chunk);
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /raider-server error: a message from the client passed the stdio transport's limit \(ReadBuffer exceeded maximum size of 10485760 bytes\); the server stops/,
    );
    expect(stderr).not.toContain('the client went away');
  }, 30_000);

  it('stdout carries protocol only: every line is a JSON-RPC message; the logs go to stderr', async () => {
    const child = spawn(process.execPath, [CLI], {
      env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({
      id: 2,
      method: 'tools/call',
      params: { name: 'task_create', arguments: { subject: 'A', description: '' } },
    });
    send({ id: 3, method: 'tools/call', params: { name: 'task_list', arguments: {} } });
    send({ id: 4, method: 'tools/call', params: { name: 'task_list', arguments: [1] } });
    await expect.poll(() => stdout.split('\n').filter(Boolean).length, { timeout: 30_000 }).toBe(4);
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = stdout.split('\n').filter(Boolean);
    const messages = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number });
    // Answers may come in any order (a malformed call is answered at once).
    expect(messages.map((m) => [m.jsonrpc, m.id]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['2.0', 1],
      ['2.0', 2],
      ['2.0', 3],
      ['2.0', 4],
    ]);
    expect(stdout).not.toMatch(/raider-server (info|debug): /);
    // The debug log went to stderr, and only there.
    expect(stderr).toMatch(/raider-server (info|debug): /);
  });
});
