// The board's inboxes (issue 27) in the model: the agents of a list and what waits for each
// (peeked, never taken), live redraws on a send and on a take, a person's message sent through
// send_message's own checks with its exact texts; and the POST route behind the board's guard.
import type { ServerResponse } from 'node:http';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { agentNameProblem } from '../src/agent-name.js';
import { Board, type BoardState } from '../src/board/board.js';
import { BOARD_SENDER, MAX_TEXT_SHOWN } from '../src/board/inboxes.js';
import { type Conversation, createConversation } from '../src/conversation/conversation.js';
import { listFor } from '../src/lists/list-for.js';
import { createRuntime } from '../src/runtime.js';
import { agentClient, serve } from './agent-clients.js';
import { textOf } from './helpers.js';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

let lists = 0;

/** A conversation of a team on a new in-memory list, and a client per agent on it. */
async function team(options: { team?: boolean } = {}) {
  lists += 1;
  const listId = `board-inboxes-${lists}-${Date.now()}`;
  // A server's runtime, as startHttp makes one: the list, the inboxes the board finds.
  const runtime = createRuntime();
  open.push({ close: () => runtime.close() });
  const conversation = createConversation({
    family: 'tasks',
    names: 'raider',
    askTimeoutMs: 60_000,
    team: options.team ?? true,
    runtime,
    list: listFor(runtime, {}, listId) as NonNullable<ReturnType<typeof listFor>>,
  });
  open.push({ close: () => conversation.close('test over') });
  const agent = async (name: string) => {
    const client = new Client({ name, version: '1.0.0' });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([
      conversation.newServer('legacy', undefined, { agent: name }).connect(serverSide),
      client.connect(clientSide),
    ]);
    open.push(client);
    return {
      call: async (tool: string, args: Record<string, unknown> = {}) =>
        textOf(await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 })),
      client,
    };
  };
  const board = new Board(() => [['s1', conversation]] as [string, Conversation][], runtime.inboxes);
  open.push(board);
  return { listId, conversation, agent, board, runtime };
}

/** The inboxes of list `key` in a board state, as `{ agent: [from, text][] }`. */
function inboxes(state: BoardState, key: string) {
  const list = state.lists.find((l) => l.key === key);
  return Object.fromEntries(
    (list?.agents ?? []).map((a) => [a.name, a.messages.map((m) => [m.from ?? 'raider', m.text])]),
  );
}

/** A stand-in page: what the board sent it, the last state parsed. */
function page() {
  let written = '';
  const res = {
    writeHead: () => res,
    write: (data: string) => {
      written += data;
      return true;
    },
    on: () => res,
    end: () => {},
    destroy: () => {},
    writableLength: 0,
  };
  const last = (): BoardState => {
    const states = written.split('event: state\ndata: ').slice(1);
    return JSON.parse((states.at(-1) ?? '').split('\n')[0] as string) as BoardState;
  };
  return { res: res as unknown as ServerResponse, last };
}

describe("the board's inboxes, in the model", () => {
  it('the sender name holds a "/": no agent can have it (a name with only a space could be an agent\'s)', () => {
    expect(BOARD_SENDER).toBe('a person at raider/board');
    expect(agentNameProblem(BOARD_SENDER)).toBe(
      'expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received "a person at raider/board"',
    );
    expect(agentNameProblem('the board')).toBeUndefined();
  });

  it("shows the list's agents (those that connected) and what waits for each, never taking it", async () => {
    const { listId, agent, board } = await team();
    const alice = await agent('alice');
    const bob = await agent('bob');
    await alice.call('task_create', { subject: 'Review', description: '' });
    await alice.call('task_update', { taskId: '1', owner: 'dave' });
    // erin owns a task and never connected: no agent of the list (issue 36), so not on the board.
    await alice.call('task_create', { subject: 'Audit', description: '' });
    await alice.call('task_update', { taskId: '2', owner: 'erin' });
    await agent('dave');
    expect(await alice.call('send_message', { to: 'bob', message: 'Can you take the parser?' })).toBe(
      'Message sent to bob',
    );
    await alice.call('send_message', { to: 'bob', message: 'two', taskId: '3' });
    await alice.call('send_message', { to: 'dave', message: 'x'.repeat(MAX_TEXT_SHOWN + 50) });

    const state = await board.state();
    const list = state.lists.find((l) => l.key === listId);
    expect(list?.agents.map((a) => a.name).sort()).toEqual(['alice', 'bob', 'dave']);
    expect(list?.moreAgents).toBe(0);
    expect(inboxes(state, listId)).toEqual({
      alice: [],
      bob: [
        ['alice', 'Can you take the parser?'],
        ['alice', 'two'],
      ],
      // dave's wake-up (a notification raider sent: no sender), then alice's long message, cut.
      dave: [
        ['raider', 'alice made you the owner of task #1 "Review"'],
        ['alice', `${'x'.repeat(MAX_TEXT_SHOWN)}…`],
      ],
    });
    const bobs = list?.agents.find((a) => a.name === 'bob');
    expect(bobs?.waiting).toBe(2);
    expect(bobs?.messages[1]).toMatchObject({ from: 'alice', text: 'two', notification: false, taskId: '3' });
    expect(list?.agents.find((a) => a.name === 'dave')?.messages.map((m) => [m.notification, m.cut])).toEqual([
      [true, undefined],
      [false, true],
    ]);

    // Peeked, not taken: bob still gets both, and the board then shows his inbox empty.
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      'Message from alice: Can you take the parser?\n\n---\n\nMessage from alice about task #3: two',
    );
    expect(inboxes(await board.state(), listId).bob).toEqual([]);
  });

  it('an open page is redrawn when a message is sent and when it is taken', async () => {
    const { listId, agent, board } = await team();
    const alice = await agent('alice');
    const bob = await agent('bob');
    const tab = page();
    await board.attach(tab.res);
    await alice.call('send_message', { to: 'bob', message: 'Ping' });
    // The store's watch redraws the page (the waits are headroom for a busy machine).
    await expect
      .poll(() => inboxes(tab.last(), listId).bob, { timeout: 10_000, interval: 20 })
      .toEqual([['alice', 'Ping']]);
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from alice: Ping');
    // A take is in no store's watch: the conversation tells the board of it.
    await expect.poll(() => inboxes(tab.last(), listId).bob, { timeout: 10_000, interval: 20 }).toEqual([]);
  });

  it("sends a person's message as send_message does, from the board's sender name", async () => {
    const { listId, agent, board, conversation } = await team();
    const alice = await agent('alice');
    const bob = await agent('bob');
    expect(await board.message({ list: listId, to: 'bob', message: 'Please take the parser' })).toEqual({
      status: 200,
      answer: { sent: 'Message sent to bob' },
    });
    expect(await board.message({ list: listId, to: 'bob', message: 'Is it done?', taskId: '3' })).toEqual({
      status: 200,
      answer: { sent: 'Message sent to bob' },
    });
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      'Message from a person at raider/board: Please take the parser\n\n---\n\nMessage from a person at raider/board about task #3: Is it done?',
    );
    // "*": every agent of the list (the board is none of them).
    expect(await board.message({ list: listId, to: '*', message: 'Standup in 5.' })).toEqual({
      status: 200,
      answer: { sent: 'Message sent to 2 agents' },
    });
    expect(await alice.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      'Message from a person at raider/board: Standup in 5.',
    );
    // An agent cannot answer the board's sender: it is not an agent's name.
    expect(await alice.call('send_message', { to: BOARD_SENDER, message: 'OK' })).toBe(
      'Error: to: expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received "a person at raider/board"',
    );
    // raider://messages shows who sent it.
    await board.message({ list: listId, to: 'bob', message: 'Read me' });
    const read = await bob.client.readResource({ uri: 'raider://messages' });
    const shown = JSON.parse((read.contents[0] as { text: string }).text) as { messages: { from: string }[] };
    expect(shown.messages.map((m) => m.from)).toEqual([BOARD_SENDER, BOARD_SENDER]);
    expect(conversation.listId).toBe(listId);
  });

  it("refuses what send_message refuses, with its texts (without the 'Error: ' prefix), and a bad body", async () => {
    const { listId, agent, board, conversation, runtime } = await team();
    await agent('alice');
    const refused = async (body: unknown) => {
      const { status, answer } = await board.message(body);
      return [status, 'error' in answer ? answer.error : answer.sent];
    };
    expect(await refused({ list: listId, to: 'alice', message: '  ' })).toEqual([
      400,
      'message: expected a non-empty text, received "  "',
    ]);
    expect(await refused({ list: listId, to: 42, message: 'Hi' })).toEqual([
      400,
      'to: expected an agent name or "*", received 42',
    ]);
    expect(await refused({ list: listId, to: '../x', message: 'Hi' })).toEqual([
      400,
      'to: expected an agent name without path separators, NUL, "." or "..", of at most 200 characters (the rules of a list id), received "../x"',
    ]);
    expect(await refused({ list: listId, to: 'alice', message: { type: 'shutdown_request' } })).toEqual([
      400,
      'message: expected a plain-text message (a string), received {"type":"shutdown_request"}',
    ]);
    expect(await refused({ list: listId, to: 'alice', message: 'Hi', summary: 'hi' })).toEqual([
      400,
      'unknown argument "summary": expected to, message, taskId',
    ]);
    expect(await refused({ list: listId, to: 'alice', message: 'Hi', taskId: 3 })).toEqual([
      400,
      'taskId: expected a task id such as "1", received 3',
    ]);
    expect(await refused({ list: listId, to: 'alice', message: 'x'.repeat(64_001) })).toEqual([
      400,
      'send: text: expected at most 64000 characters, received 64001',
    ]);
    // A full inbox: the store's own words.
    await agent('carol');
    const store = runtime.inboxes.get(conversation.id)?.store();
    for (let i = 0; i < 1000; i += 1) await store?.send({ to: 'carol', text: `${i}`, notification: false });
    expect(await refused({ list: listId, to: 'carol', message: 'One more' })).toEqual([
      400,
      'send: the inbox of "carol" holds 1000 messages, the most allowed; it takes none until some are taken',
    ]);
    expect(await refused({ list: 'no-such-list', to: 'alice', message: 'Hi' })).toEqual([
      404,
      'list: expected the key of a list on the board, received "no-such-list"',
    ]);
    expect(await refused({ to: 'alice', message: 'Hi' })).toEqual([
      404,
      'list: expected the key of a list on the board, received nothing',
    ]);
    expect(await refused(['alice', 'Hi'])).toEqual([
      400,
      'expected a JSON object { list, to, message, taskId? }, received ["alice","Hi"]',
    ]);
    expect(await refused('x'.repeat(100))).toEqual([
      400,
      'expected a JSON object { list, to, message, taskId? }, received a string of 100 characters',
    ]);
  });

  it('"*" on a list with no agent yet sends nothing and says so', async () => {
    const { listId, board } = await team({ team: false });
    expect(await board.message({ list: listId, to: '*', message: 'Anyone?' })).toEqual({
      status: 400,
      answer: {
        error:
          'to: "*" reaches no other agent of this list yet (its agents are those that connected to it, each under its own name); nothing was sent',
      },
    });
    expect((await board.state()).lists[0]?.agents).toEqual([]);
  });
});

/** A request to the server's board routes: its status and JSON answer. */
function post(url: string, body: string, headers: Record<string, string> = {}, path = '/board/message') {
  const target = new URL(url);
  return new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('POST /board/message', () => {
  it("sends behind the board's guard: its secret, the Origin check, a bounded body", async () => {
    const server = await serve(['--board', '--team']);
    const alice = await agentClient(server.url, 'legacy', 'route-team', 'alice');
    const secret = new URL(server.boardUrl as string).searchParams.get('token') as string;
    const cookie = { cookie: `raider_token=${secret}` };
    const body = JSON.stringify({ list: 'route-team', to: 'alice', message: 'From the route' });
    expect(await post(server.url, body)).toMatchObject({ status: 401 });
    expect(await post(server.url, body, { ...cookie, origin: 'https://evil.example' })).toMatchObject({
      status: 403,
    });
    expect(await post(server.url, body, cookie)).toEqual({ status: 200, json: { sent: 'Message sent to alice' } });
    expect(await alice.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      'Message from a person at raider/board: From the route',
    );
    expect(await post(server.url, JSON.stringify({ list: 'route-team', to: 'alice', message: '' }), cookie)).toEqual({
      status: 400,
      json: { error: 'message: expected a non-empty text, received ""' },
    });
    expect(await post(server.url, '{not json', cookie)).toEqual({
      status: 400,
      json: { error: 'expected a JSON body { list, to, message, taskId? }' },
    });
    expect(await post(server.url, 'x'.repeat(600 * 1024), cookie)).toEqual({
      status: 413,
      json: { error: 'expected a body of at most 524288 bytes' },
    });
  }, 60_000);
});
