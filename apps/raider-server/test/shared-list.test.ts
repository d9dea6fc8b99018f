// One durable list, three server processes: a change made through one reaches the others' next
// call and their raider://tasks subscribers within a second, through the change feed (no process
// reads the list whole again).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { stdioClient, textOf } from './helpers.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

/** A server on list `team` of `dir`, its subscription updates, and what it logs. */
async function member(dir: string) {
  const { client, transport } = await stdioClient(['--data-dir', dir, '--list', 'team', '--log-level', 'debug']);
  open.push(client);
  const log = { text: '' };
  (transport as StdioClientTransport).stderr?.on('data', (chunk: Buffer) => {
    log.text += chunk.toString();
  });
  const updates: number[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
    updates.push(Date.now());
  });
  await client.subscribeResource({ uri: 'raider://tasks' });
  return { client, updates, log };
}

const tasksOf = async (client: Client) => {
  const read = await client.readResource({ uri: 'raider://tasks' });
  return JSON.parse((read.contents[0] as { text: string }).text).tasks as {
    id: string;
    status: string;
    owner?: string;
  }[];
};

describe('three servers on one list', () => {
  it('a change through one reaches the next call and the subscribers of the others within a second, without a reload', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raider-shared-'));
    const [a, b, c] = await Promise.all([member(dir), member(dir), member(dir)]);
    // Each reads the (empty) list once.
    for (const m of [a, b, c]) await m.client.callTool({ name: 'task_list', arguments: {} });
    expect(
      textOf(await a.client.callTool({ name: 'task_create', arguments: { subject: 'Shared', description: '' } })),
    ).toBe('Task #1 created successfully: Shared');
    // The next call of the others sees it.
    expect(textOf(await b.client.callTool({ name: 'task_get', arguments: { taskId: '1' } }))).toContain(
      'Task #1: Shared',
    );
    const before = c.updates.length;
    const changedAt = Date.now();
    await b.client.callTool({ name: 'task_update', arguments: { taskId: '1', status: 'in_progress', owner: 'bob' } });
    // c's subscriber hears of b's change within a second, and c's list shows it.
    await expect.poll(() => c.updates.length, { timeout: 1000, interval: 10 }).toBeGreaterThan(before);
    expect((c.updates.at(-1) as number) - changedAt).toBeLessThan(1000);
    expect(await tasksOf(c.client)).toEqual([
      expect.objectContaining({ id: '1', status: 'in_progress', owner: 'bob' }),
    ]);
    await expect.poll(() => a.updates.length, { timeout: 1000, interval: 10 }).toBeGreaterThan(0);
    expect(
      textOf(await c.client.callTool({ name: 'task_create', arguments: { subject: 'Next', description: '' } })),
    ).toBe('Task #2 created successfully: Next');
    expect(textOf(await a.client.callTool({ name: 'task_list', arguments: {} }))).toBe(
      '#1 [in_progress] Shared (bob)\n#2 [pending] Next',
    );
    // No process read the list whole more than once: the rest came from the change feed.
    for (const m of [a, b, c]) expect(m.log.text.match(/list team: read whole/g)).toHaveLength(1);
  }, 60_000);
});
