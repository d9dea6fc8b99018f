// Leases across server processes on one durable list: a lease nobody renews lets go at its
// deadline for every reader (raider://tasks and its subscribers included), with nothing else
// changing the list; while it is live, only the session that holds it changes the task.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { stdioClient, textOf } from './helpers.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

/** A server on list `team` of `dir` with task_claim, and the raider://tasks updates it sends. */
async function member(dir: string) {
  const { client } = await stdioClient(['--data-dir', dir, '--list', 'team', '--claims']);
  open.push(client);
  const updates: number[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
    updates.push(Date.now());
  });
  await client.subscribeResource({ uri: 'raider://tasks' });
  return { client, updates };
}

const tasksOf = async (client: Client) => {
  const read = await client.readResource({ uri: 'raider://tasks' });
  return JSON.parse((read.contents[0] as { text: string }).text).tasks as { status: string; owner?: string }[];
};

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  textOf(await client.callTool({ name, arguments: args }));

describe('leases across servers', () => {
  it('a lease nobody renews lets go at its deadline: every reader and subscriber sees the task pending and unowned', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raider-leases-'));
    const [holder, watcher] = await Promise.all([member(dir), member(dir)]);
    await call(holder.client, 'task_create', { subject: 'Parse', description: '' });
    expect(await call(holder.client, 'task_claim', { taskId: '1', owner: 'alice', leaseSeconds: 2 })).toBe(
      'Claimed task #1: Parse',
    );
    await expect
      .poll(() => tasksOf(watcher.client), { timeout: 10_000 })
      .toEqual([expect.objectContaining({ status: 'in_progress', owner: 'alice' })]);
    // While the lease is live, another session is refused, whatever owner it names.
    expect(await call(watcher.client, 'task_update', { taskId: '1', status: 'completed' })).toMatch(
      /^Error: task #1 is claimed by alice under another session's lease until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; only that session can change it until then/,
    );
    expect(await call(watcher.client, 'task_claim', { taskId: '1', owner: 'alice' })).toMatch(
      /^Task #1 is already claimed by alice under another session's lease, until /,
    );
    const before = watcher.updates.length;
    // Nobody calls anything: the deadline alone lets the task go, and the subscriber hears of it.
    await expect.poll(() => watcher.updates.length, { timeout: 20_000, interval: 50 }).toBeGreaterThan(before);
    const [task] = await tasksOf(watcher.client);
    expect(task?.status).toBe('pending');
    expect(task?.owner).toBeUndefined();
    expect(await call(watcher.client, 'task_list', {})).toBe('#1 [pending] Parse');
    expect(await call(watcher.client, 'task_claim', { owner: 'bob' })).toBe('Claimed task #1: Parse');
    expect(await call(holder.client, 'task_update', { taskId: '1', status: 'completed' })).toBe(
      'Error: your claim on task #1 expired (its lease ran out before this session touched it again); claim it again with task_claim',
    );
  }, 60_000);
});
