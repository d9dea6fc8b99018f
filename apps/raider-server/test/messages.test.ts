// Agents that talk (issue 27), over HTTP in both eras: who an agent is (X-Raider-Agent, --agent,
// the session's id), send_message and wait_for_messages with their exact answers, broadcast to the
// agents that connected (issue 36), Claude Code's names, refusals, raider://messages, and a message
// whose answer was not sent.
import type { Client } from '@modelcontextprotocol/client';
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { readOptions } from '../src/index.js';
import { agentClient, serve } from './agent-clients.js';

describe.each(['legacy', 'modern'] as const)('two agents on one list over HTTP, %s era', (era) => {
  it('exchange messages: sent, taken with who sent it, several in one answer, then No messages', async () => {
    const server = await serve();
    const alice = await agentClient(server.url, era, `talk-${era}`, 'alice');
    const bob = await agentClient(server.url, era, `talk-${era}`, 'bob');
    expect(await alice.tools()).toEqual([
      'ask_user',
      'send_message',
      'task_create',
      'task_get',
      'task_list',
      'task_update',
      'wait_for_messages',
    ]);
    expect(await alice.call('send_message', { to: 'bob', message: 'Can you take the parser?' })).toBe(
      'Message sent to bob',
    );
    expect(await bob.call('wait_for_messages')).toBe('Message from alice: Can you take the parser?');
    await alice.call('send_message', { to: 'bob', message: 'one' });
    await alice.call('send_message', { to: 'bob', message: 'two', taskId: '3' });
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      'Message from alice: one\n\n---\n\nMessage from alice about task #3: two',
    );
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
    // bob answers; alice's inbox is her own.
    expect(await bob.call('send_message', { to: 'alice', message: 'Yes.' })).toBe('Message sent to alice');
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
    expect(await alice.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from bob: Yes.');
  });

  it('wait_for_messages waits, and wakes on a send from another client', async () => {
    const server = await serve();
    const alice = await agentClient(server.url, era, `wait-${era}`, 'alice');
    const bob = await agentClient(server.url, era, `wait-${era}`, 'bob');
    const waiting = bob.call('wait_for_messages', { timeoutSeconds: 30 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await alice.call('send_message', { to: 'bob', message: 'Now.' });
    expect(await waiting).toBe('Message from alice: Now.');
  });

  it('to "*" reaches every other agent of the list (those that connected), not a task\'s owner that never did', async () => {
    const server = await serve();
    const list = `everyone-${era}`;
    const alice = await agentClient(server.url, era, list, 'alice');
    const bob = await agentClient(server.url, era, list, 'bob');
    const carol = await agentClient(server.url, era, list, 'carol');
    await alice.call('task_create', { subject: 'Review', description: '' });
    await alice.call('task_update', { taskId: '1', owner: 'dave' });
    expect(await alice.call('send_message', { to: '*', message: 'Standup in 5.' })).toBe('Message sent to 2 agents');
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from alice: Standup in 5.');
    expect(await carol.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from alice: Standup in 5.');
    expect(await alice.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
    // dave owns a task but never connected: no agent yet, so a message to him is refused.
    expect(await alice.result('send_message', { to: 'dave', message: 'Yours.' })).toEqual({
      isError: true,
      text: 'Error: to: expected an agent of this list, received "dave" (no agent of that name has connected to it). Its agents: "alice", "bob", "carol". Nothing was sent; a server started with --send-to-unseen writes to names not seen yet',
    });
    // raider told him of the task all the same: he finds it when he comes, and is an agent from then on.
    const dave = await agentClient(server.url, era, list, 'dave');
    expect(await dave.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      [
        '<task-notification>',
        '<task-id>1</task-id>',
        '<task-type>task_assigned</task-type>',
        '<summary>alice made you the owner of task #1 "Review"</summary>',
        '</task-notification>',
      ].join('\n'),
    );
    expect(await alice.call('send_message', { to: 'dave', message: 'Yours.' })).toBe('Message sent to dave');
  });

  it('refuses shapes it does not take, in the task tools style', async () => {
    const server = await serve();
    const alice = await agentClient(server.url, era, `refusals-${era}`, 'alice');
    const refused = async (name: string, args: Record<string, unknown>) => {
      const answer = await alice.result(name, args);
      expect(answer.isError).toBe(true);
      return answer.text;
    };
    expect(await refused('send_message', { to: 42, message: 'hi' })).toBe(
      'Error: to: expected an agent name or "*", received 42',
    );
    expect(await refused('send_message', { to: '../bob', message: 'hi' })).toBe(
      'Error: to: expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received "../bob"',
    );
    expect(await refused('send_message', { to: 'bob', message: { type: 'shutdown_request' } })).toBe(
      'Error: message: expected a plain-text message (a string), received {"type":"shutdown_request"}',
    );
    expect(await refused('send_message', { to: 'bob', message: '  ' })).toBe(
      'Error: message: expected a non-empty text, received "  "',
    );
    expect(await refused('send_message', { to: 'bob', message: 'hi', summary: 'x' })).toBe(
      'Error: unknown argument "summary": expected to, message, taskId',
    );
    expect(await refused('send_message', { to: 'bob', message: 'hi', taskId: 3 })).toBe(
      'Error: taskId: expected a task id such as "1", received 3',
    );
    expect(await refused('send_message', { to: '*', message: 'anyone?' })).toBe(
      'Error: to: "*" reaches no other agent of this list yet (its agents are those that connected to it, each under its own name); nothing was sent',
    );
    expect(await refused('send_message', { to: 'alice', message: 'x'.repeat(64_001) })).toBe(
      'Error: send: text: expected at most 64000 characters, received 64001',
    );
    expect(await refused('wait_for_messages', { timeoutSeconds: 90 })).toBe(
      'Error: timeoutSeconds: expected a number from 0 to 50, received 90',
    );
    expect(await refused('wait_for_messages', { timeoutSeconds: '5' })).toBe(
      'Error: timeoutSeconds: expected a number from 0 to 50, received "5"',
    );
  });
});

describe('who an agent is', () => {
  it('--agent / RAIDER_AGENT and --team / RAIDER_TEAM are read; a name that breaks the list id rules is refused', () => {
    expect(readOptions(['--agent', 'alice'], {})).toMatchObject({ agent: 'alice', team: false });
    expect(readOptions([], { RAIDER_AGENT: 'bob', RAIDER_TEAM: '1' })).toMatchObject({ agent: 'bob', team: true });
    expect(() => readOptions(['--agent', '../x'], {})).toThrow(
      '--agent: expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received "../x"',
    );
    expect(() => readOptions([], { RAIDER_AGENT: 'a'.repeat(201) })).toThrow(
      'RAIDER_AGENT: expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received a string of 201 characters',
    );
  });

  it('without X-Raider-Agent the messaging tools are not mounted, unless --team: then the session id names the agent', async () => {
    const plain = await serve();
    const anonymous = await agentClient(plain.url, 'legacy', 'who');
    expect(await anonymous.tools()).not.toContain('send_message');
    const team = await serve(['--team']);
    const lone = await agentClient(team.url, 'legacy', 'who-team');
    const session = [...team.sessions.keys()][0] as string;
    expect(await lone.call('send_message', { to: session, message: 'note to self' })).toBe(
      `Message sent to ${session}`,
    );
    expect(await lone.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(`Message from ${session}: note to self`);
  });

  it('--agent beats the header; a bad X-Raider-Agent is refused with a 400 that says why', async () => {
    const server = await serve(['--agent', 'lead']);
    const someone = await agentClient(server.url, 'modern', 'pinned', 'alice');
    expect(await someone.call('send_message', { to: 'lead', message: 'hi' })).toBe('Message sent to lead');
    expect(await someone.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from lead: hi');
    const open = await serve();
    for (const [header, reason] of [
      [
        '..',
        'expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received ".."',
      ],
      [
        'a%2Fb',
        'expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received "a/b"',
      ],
      [
        '*',
        'expected an agent name, received "*" (it stands for every other agent of the list, in send_message\'s to)',
      ],
    ] as const) {
      const answer = await fetch(open.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-raider-agent': header,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(
        `Bad x-raider-agent header: ${reason}`,
      );
    }
    expect(open.sessions.size).toBe(0);
  });

  it('a percent-encoded name is decoded, as X-Raider-List is', async () => {
    const server = await serve();
    const jurgen = await agentClient(server.url, 'legacy', 'names', 'J%C3%BCrgen');
    const bob = await agentClient(server.url, 'modern', 'names', 'bob');
    expect(await bob.call('send_message', { to: 'Jürgen', message: 'Grüß dich' })).toBe('Message sent to Jürgen');
    expect(await jurgen.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from bob: Grüß dich');
  });
});

describe("Claude Code's names", () => {
  it("SendMessage takes Claude Code 2.1.332's to, summary and message; WaitForMessages waits", async () => {
    const server = await serve(['--names', 'claude']);
    const alice = await agentClient(server.url, 'legacy', 'claude-names', 'alice');
    const bob = await agentClient(server.url, 'modern', 'claude-names', 'bob');
    const listed = await (alice.client as V1Client).listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual([
      'AskUserQuestion',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'WaitForMessages',
    ]);
    const send = listed.tools.find((tool) => tool.name === 'SendMessage');
    expect(Object.keys(send?.inputSchema.properties ?? {})).toEqual(['to', 'summary', 'message', 'taskId']);
    expect(send?.inputSchema.required).toEqual(['to', 'message']);
    expect(
      await alice.call('SendMessage', { to: 'bob', summary: 'parser handoff', message: 'The parser is yours.' }),
    ).toBe('Message sent to bob');
    expect(await bob.call('WaitForMessages', { timeoutSeconds: 0 })).toBe('Message from alice: The parser is yours.');
  });
});

describe('raider://messages', () => {
  it('shows what waits for the agent, and tells a 2025-era subscriber when a message arrives', async () => {
    const server = await serve();
    const alice = await agentClient(server.url, 'legacy', 'inbox', 'alice');
    const bob = await agentClient(server.url, 'legacy', 'inbox', 'bob');
    const client = bob.client as V1Client;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    await client.subscribeResource({ uri: 'raider://messages' });
    await alice.call('send_message', { to: 'bob', message: 'Read me', taskId: '2' });
    await expect.poll(() => updated, { timeout: 10_000 }).toContain('raider://messages');
    const read = await client.readResource({ uri: 'raider://messages' });
    const inbox = JSON.parse((read.contents[0] as { text: string }).text) as {
      agent: string;
      messages: { from: string; to: string; text: string; taskId: string; notification: boolean }[];
    };
    expect(inbox.agent).toBe('bob');
    expect(inbox.messages).toMatchObject([
      { from: 'alice', to: 'bob', text: 'Read me', taskId: '2', notification: false },
    ]);
    // Reading it takes nothing.
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      'Message from alice about task #2: Read me',
    );
  });

  it('a 2026-era listen stream hears of a new message', async () => {
    const server = await serve();
    const alice = await agentClient(server.url, 'modern', 'inbox-modern', 'alice');
    const bob = await agentClient(server.url, 'modern', 'inbox-modern', 'bob');
    const updated: string[] = [];
    const client = bob.client as Client;
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updated.push(notification.params.uri);
    });
    // The stream is per list: it reads the inbox of the agent its reads name.
    await client.listen({ resourceSubscriptions: ['raider://messages'] });
    await alice.call('send_message', { to: 'bob', message: 'Listen' });
    await expect.poll(() => updated, { timeout: 10_000 }).toContain('raider://messages');
  });
});

describe('delivery', () => {
  it('a message taken for a wait whose client went away comes back to the next wait', async () => {
    const server = await serve();
    const alice = await agentClient(server.url, 'legacy', 'gone', 'alice');
    const bob = await agentClient(server.url, 'legacy', 'gone', 'bob');
    // bob's wait goes out on a POST of his session, then his client drops that connection.
    const session = [...server.sessions.keys()][1] as string;
    const aborted = new AbortController();
    const waiting = fetch(server.url, {
      method: 'POST',
      signal: aborted.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'lost',
        method: 'tools/call',
        params: { name: 'wait_for_messages', arguments: { timeoutSeconds: 20 } },
      }),
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    aborted.abort();
    await waiting;
    // The wait still runs on the server: it takes the message, and its answer cannot be sent.
    await alice.call('send_message', { to: 'bob', message: 'Still here?' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 5 })).toBe('Message from alice: Still here?');
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
  });
});
