// Agents that talk across processes (issue 27): two stdio server processes on one shared list, in a
// folder and in PostgreSQL, each serving one agent (--agent): a wait in one process wakes on a send
// through the other, and a task completed through one wakes the owner of the task it blocked,
// waiting on the other, exactly once.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { CLI, stdioClient, textOf } from './helpers.js';

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
});

const places = {
  folder: async () => ['--data-dir', await mkdtemp(join(tmpdir(), 'raider-team-'))],
  postgres: async () => ['--database-url', inject('databaseUrl')],
};

/** What the server processes of a test said on stderr (shown when an answer is not the one expected). */
let said = '';

/** A server process for `agent` on list `list` in `place`; a tool call's text (or why it failed, with what the servers said). */
async function agentProcess(place: string[], list: string, agent: string) {
  said = '';
  const { client, transport } = await stdioClient([...place, '--list', list, '--agent', agent, '--log-level', 'warn']);
  open.push(client);
  (transport as StdioClientTransport).stderr?.on('data', (chunk: Buffer) => {
    said += `${agent}: ${chunk.toString()}`;
  });
  return (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }).then(
      (result) => {
        const text = textOf(result);
        return result.isError && said ? `${text} [the servers said: ${said}]` : text;
      },
      (error: Error) => `failed: ${error.message} [the servers said: ${said}]`,
    );
}

describe.each(['folder', 'postgres'] as const)('two server processes on one list in %s', (where) => {
  it('a wait in one process wakes on a send through the other', async () => {
    const place = await places[where]();
    const list = `talk-${randomUUID()}`;
    const [alice, bob] = await Promise.all([agentProcess(place, list, 'alice'), agentProcess(place, list, 'bob')]);
    const waiting = bob('wait_for_messages', { timeoutSeconds: 40 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await alice('send_message', { to: 'bob', message: 'From the other process.' })).toBe('Message sent to bob');
    expect(await waiting).toBe('Message from alice: From the other process.');
    expect(await bob('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
    // The roster is the list's: bob's broadcast reaches alice, who owns nothing and is served elsewhere.
    expect(await bob('send_message', { to: '*', message: 'All hands.' })).toBe('Message sent to 1 agent');
    expect(await alice('wait_for_messages', { timeoutSeconds: 10 })).toBe('Message from bob: All hands.');
  }, 120_000);

  it('a blocker completed through one process wakes its blocked task owner waiting on the other, once', async () => {
    const place = await places[where]();
    const list = `wake-${randomUUID()}`;
    const [alice, bob] = await Promise.all([agentProcess(place, list, 'alice'), agentProcess(place, list, 'bob')]);
    await alice('task_create', { subject: 'Write the parser', description: '' });
    await alice('task_create', { subject: 'Ship it', description: '' });
    await alice('task_update', { taskId: '1', addBlocks: ['2'] });
    await bob('task_update', { taskId: '2', owner: 'bob' });
    const waiting = bob('wait_for_messages', { timeoutSeconds: 40 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await alice('task_update', { taskId: '1', status: 'completed' })).toBe('Updated task #1 status');
    expect(await waiting).toBe(
      [
        '<task-notification>',
        '<task-id>1</task-id>',
        '<task-type>blocker_completed</task-type>',
        '<status>completed</status>',
        '<summary>Task #1 "Write the parser" completed; #2 "Ship it" is no longer blocked by it</summary>',
        '</task-notification>',
      ].join('\n'),
    );
    // bob's process caught up with the change too, and announced nothing of it.
    expect(await bob('task_list')).toBe('#1 [completed] Write the parser\n#2 [pending] Ship it (bob)');
    expect(await bob('wait_for_messages', { timeoutSeconds: 2 })).toBe('No messages');
  }, 120_000);
});

describe.each(['legacy', 'modern'] as const)('over stdio, %s era', (era) => {
  it('a message taken for an answer the tap saw written is not given back (never taken twice)', async () => {
    const args = [CLI, '--agent', 'solo', '--log-level', 'error'];
    let call: (name: string, args?: Record<string, unknown>) => Promise<string | undefined>;
    if (era === 'legacy') {
      const { client } = await stdioClient(args.slice(1));
      open.push(client);
      call = (name, input = {}) => client.callTool({ name, arguments: input }).then(textOf);
    } else {
      const client = new ModernClient(
        { name: 'modern-stdio', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      open.push(client);
      await client.connect(
        new ModernStdioTransport({
          command: process.execPath,
          args,
          env: { PATH: process.env.PATH ?? '' },
          stderr: 'ignore',
        }),
      );
      expect(client.getProtocolEra()).toBe('modern');
      call = (name, input = {}) => client.callTool({ name, arguments: input }).then(textOf);
    }
    expect(await call('send_message', { to: 'solo', message: 'Note to self.' })).toBe('Message sent to solo');
    expect(await call('wait_for_messages', { timeoutSeconds: 5 })).toBe('Message from solo: Note to self.');
    // Not given back (a release would hand it to the next take at once), also after the 2 s the tap
    // waits for an answer that follows a cancellation.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
  }, 60_000);
});
