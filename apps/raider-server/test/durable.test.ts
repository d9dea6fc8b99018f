// Durable lists with real processes and real files.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { listFolderPath } from '@raider/file-store';
import { afterEach, describe, expect, it } from 'vitest';
import { projectListId } from '../src/lists/project-list.js';
import { stdioClient, textOf } from './helpers.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

const dataDir = () => mkdtemp(join(tmpdir(), 'raider-lists-'));

async function server(dir: string, list: string, extra: string[] = []) {
  const { client, transport } = await stdioClient(['--data-dir', dir, '--list', list, ...extra]);
  open.push(client);
  return { client, transport };
}

type StoredTask = { id: string; subject: string };

/** A list folder as it is on disk: every task file (each must parse), and the next id it implies. */
function readList(dir: string, list: string): { tasks: StoredTask[]; nextId: number } {
  const path = listFolderPath(dir, list);
  const tasks = readdirSync(path)
    .filter((name) => /^\d+\.json$/.test(name))
    .map((name) => JSON.parse(readFileSync(`${path}/${name}`, 'utf8')) as StoredTask);
  const mark = existsSync(`${path}/.highwatermark`) ? Number(readFileSync(`${path}/.highwatermark`, 'utf8')) : 0;
  return { tasks, nextId: Math.max(mark, ...tasks.map((task) => Number(task.id))) + 1 };
}

const created = (text: string | undefined) => /^Task #(\d+) created successfully: (.*)$/.exec(text ?? '');

describe('durable lists', () => {
  it('two server processes on one list, 500 concurrent creates each: every acknowledged change is in the file', async () => {
    const dir = await dataDir();
    const [a, b] = await Promise.all([server(dir, 'shared'), server(dir, 'shared')]);
    const fire = (client: Client, who: string) =>
      Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          client.callTool({ name: 'task_create', arguments: { subject: `${who}-${i}`, description: '' } }),
        ),
      );
    const results = (await Promise.all([fire(a.client, 'a'), fire(b.client, 'b')])).flat();
    const acknowledged = results.map((r) => created(textOf(r))).filter((m) => m !== null);
    expect(acknowledged).toHaveLength(1000);
    const tasks = readList(dir, 'shared');
    const byId = new Map(tasks.tasks.map((t) => [t.id, t.subject]));
    expect(byId.size).toBe(tasks.tasks.length);
    for (const [, id, subject] of acknowledged as RegExpExecArray[]) expect(byId.get(id as string)).toBe(subject);
    expect(new Set(acknowledged.map((m) => m?.[1])).size).toBe(1000);
    expect(tasks.nextId).toBe(1001);
  }, 120_000);

  it('kill -9 in the middle of a stream of writes, again and again: the file parses and holds every acknowledged change', async () => {
    const dir = await dataDir();
    const acknowledged = new Map<string, string>();
    for (let round = 0; round < 5; round += 1) {
      const { client, transport } = await server(dir, 'crashy');
      let stop = false;
      let ackedThisRound = 0;
      const writer = (async () => {
        for (let i = 0; !stop; i += 1) {
          const subject = `r${round}-${i}`;
          const result = await client.callTool({
            name: 'task_create',
            arguments: { subject, description: 'x'.repeat(200) },
          });
          const match = created(textOf(result));
          if (match) {
            acknowledged.set(match[1] as string, subject);
            ackedThisRound += 1;
          }
        }
      })().catch(() => {});
      // Kill only once this round has had a write acknowledged (however slow the machine), then
      // at a point that differs from round to round, with writes in flight.
      await expect.poll(() => ackedThisRound, { timeout: 30_000, interval: 5 }).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 20 + round * 30));
      process.kill((transport as StdioClientTransport).pid as number, 'SIGKILL');
      stop = true;
      await writer;
      open.splice(open.indexOf(client), 1);
      const tasks = readList(dir, 'crashy');
      const byId = new Map(tasks.tasks.map((t) => [t.id, t.subject]));
      for (const [id, subject] of acknowledged) expect(byId.get(id)).toBe(subject);
      expect(Math.max(...tasks.tasks.map((t) => Number(t.id)))).toBeLessThan(tasks.nextId);
    }
    // Every round acknowledged at least one write before its kill, so the checks above had work to check.
    expect(acknowledged.size).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('a restart brings the list back and the next id follows the high-water mark', async () => {
    const dir = await dataDir();
    const first = await server(dir, 'restart');
    for (const s of ['A', 'B', 'C']) {
      await first.client.callTool({ name: 'task_create', arguments: { subject: s, description: '' } });
    }
    await first.client.callTool({ name: 'task_update', arguments: { taskId: '3', status: 'deleted' } });
    await first.client.close();
    const second = await server(dir, 'restart');
    expect(textOf(await second.client.callTool({ name: 'task_list', arguments: {} }))).toBe(
      '#1 [pending] A\n#2 [pending] B',
    );
    expect(
      textOf(await second.client.callTool({ name: 'task_create', arguments: { subject: 'D', description: '' } })),
    ).toBe('Task #4 created successfully: D');
  }, 30_000);

  it('all three families persist their state, in files of their own in the list folder', async () => {
    const dir = await dataDir();
    const todo = await server(dir, 'families', ['--family', 'todo']);
    await todo.client.callTool({ name: 'todo', arguments: { action: 'create', subject: 'T' } });
    const writer = await server(dir, 'families', ['--family', 'todo_write']);
    await writer.client.callTool({ name: 'todo_write', arguments: { todos: [{ content: 'W', status: 'pending' }] } });
    const path = listFolderPath(dir, 'families');
    expect(JSON.parse(readFileSync(`${path}/.raider-todo.json`, 'utf8'))).toEqual({
      tasks: [{ id: 1, subject: 'T', status: 'pending' }],
      nextId: 2,
    });
    expect(JSON.parse(readFileSync(`${path}/.raider-todo-write.json`, 'utf8'))).toEqual({
      todos: [{ content: 'W', status: 'pending', activeForm: 'W' }],
    });
    await todo.client.close();
    const again = await server(dir, 'families', ['--family', 'todo']);
    expect(textOf(await again.client.callTool({ name: 'todo', arguments: { action: 'list' } }))).toBe('[pending] #1 T');
  }, 30_000);

  it('a corrupt task file: left byte for byte, named on stderr, and the rest of the list works', async () => {
    const dir = await dataDir();
    const path = listFolderPath(dir, 'broken');
    mkdirSync(path, { recursive: true });
    const garbage = Buffer.from('{"id": "1", "subject": [ \u0000 oops');
    writeFileSync(`${path}/1.json`, garbage);
    const { client, transport } = await server(dir, 'broken', ['--log-level', 'warn']);
    let stderr = '';
    (transport as StdioClientTransport).stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(textOf(await client.callTool({ name: 'task_create', arguments: { subject: 'A', description: '' } }))).toBe(
      'Task #2 created successfully: A',
    );
    expect(textOf(await client.callTool({ name: 'task_list', arguments: {} }))).toBe('#2 [pending] A');
    await expect.poll(() => stderr, { timeout: 10_000 }).toContain(`${path}/1.json: not valid JSON`);
    expect(stderr).not.toContain('oops');
    expect(readFileSync(`${path}/1.json`).equals(garbage)).toBe(true);
  }, 30_000);

  it('a corrupt list file of the first layout: an error answer naming the file, and the file byte for byte unchanged', async () => {
    const dir = await dataDir();
    const path = `${listFolderPath(dir, 'old')}.json`;
    const garbage = Buffer.from('{"tasks": {"tasks": [ \u0000 oops');
    writeFileSync(path, garbage);
    const { client } = await server(dir, 'old');
    for (const [name, args] of [
      ['task_create', { subject: 'A', description: '' }],
      ['task_list', {}],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`${path}: not valid JSON`);
    }
    expect(readFileSync(path).equals(garbage)).toBe(true);
  }, 30_000);

  it('the default list of a project is named after its folder', () => {
    expect(projectListId('/home/me/my app')).toMatch(/^my_app-[0-9a-f]{8}$/);
  });
});

describe('temporary files', () => {
  it('a temporary file left by a dead writer is removed; a live one is kept', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const dir = await mkdtemp(join(tmpdir(), 'raider-tmp-'));
    const path = listFolderPath(dir, 'sweep');
    mkdirSync(path, { recursive: true });
    const dead = `${path}/.1.json.999999.1.tmp`;
    const live = `${path}/.1.json.${process.ppid}.1.tmp`;
    writeFileSync(dead, 'half');
    writeFileSync(live, 'half');
    const { client } = await server(dir, 'sweep');
    expect(textOf(await client.callTool({ name: 'task_list', arguments: {} }))).toBe('No tasks found');
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  }, 30_000);
});
