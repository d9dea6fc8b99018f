// Who is who (issue 38): real server processes with a table of agents (--agents), over HTTP in both
// eras, on a folder and on PostgreSQL. Mallory, with her own token, claiming to be bob is refused
// on every tool (a 403 that says so); as herself she reads only her own inbox, cannot complete or
// take bob's leased task, claim for bob, or read bob's question; bob's two sessions share his inbox
// and his lease; a sender cannot be forged; the board's answers and messages name the person.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { textOf } from './helpers.js';
import { type ServerProcess, spawnServer, stopServer } from './team-processes.js';

const TOKENS = {
  alice: 'alice-token-0123456789abcdef',
  bob: 'bob-token-0123456789abcdefgh',
  mallory: 'mallory-token-0123456789abcd',
  dana: 'dana-board-token-0123456789ab',
};

/** The table: three agents, and Dana, a person who may open the board (as TOML, by its sha256 for bob). */
const TABLE = `
[[agents]]
name = "alice"
token = "${TOKENS.alice}"

[[agents]]
name = "bob"
sha256 = "${createHash('sha256').update(TOKENS.bob).digest('hex')}"

[[agents]]
name = "mallory"
token = "${TOKENS.mallory}"

[[agents]]
name = "Dana"
token = "${TOKENS.dana}"
board = true
`;

type Era = 'legacy' | 'modern';
type Agent = keyof typeof TOKENS;

/** A tool call's outcome as a model reads it. */
interface Outcome {
  isError: boolean;
  text: string;
}

const closing: { close(): Promise<unknown> }[] = [];

/** An MCP client of `era` on `list` with `agent`'s token, naming `claims` in X-Raider-Agent when given. */
async function connect(url: string, era: Era, list: string, agent: Agent, claims?: string) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${TOKENS[agent]}`,
    'x-raider-list': list,
    ...(claims ? { 'x-raider-agent': claims } : {}),
  };
  const client =
    era === 'legacy'
      ? new Client({ name: `creds-${agent}`, version: '1.0.0' })
      : new ModernClient(
          { name: `creds-${agent}`, version: '1.0.0' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
  if (client instanceof Client)
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  else await client.connect(new ModernHttpTransport(new URL(url), { requestInit: { headers } }));
  closing.push(client);
  return {
    client,
    async call(name: string, args: Record<string, unknown> = {}): Promise<Outcome> {
      const result = await (client as Client).callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      return { isError: result.isError === true, text: textOf(result) ?? '' };
    },
    async texts(name: string, args: Record<string, unknown> = {}): Promise<string[]> {
      const result = await (client as Client).callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      return (result.content as { type: string; text: string }[]).map((block) => block.text);
    },
    async tools(): Promise<string[]> {
      return (await (client as Client).listTools()).tools.map((tool) => tool.name);
    },
  };
}

/** A raw JSON-RPC POST to /mcp: its status and body. */
async function post(url: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** A 2026-era tools/call envelope (no session), as the SDK v2 client sends it. */
const modernCall = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name,
    arguments: args,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

/** Arguments that make each tool do something of bob's (any tool not named takes none). */
const BOB_THINGS: Record<string, Record<string, unknown>> = {
  task_create: { subject: 'Mallory as bob', description: 'forged' },
  task_update: { taskId: '1', status: 'completed' },
  task_get: { taskId: '1' },
  task_claim: { taskId: '1', owner: 'bob' },
  send_message: { to: 'alice', message: 'from "bob"' },
  wait_for_messages: { timeoutSeconds: 0 },
  ask_user: { resume: 'ask_1' },
};

const FORBIDDEN_AS_BOB = `Forbidden: this token is "mallory"'s; x-raider-agent may only repeat that name, received "bob"`;

/** Opens the board's event stream as Dana (the board asks only while a person has it open). */
async function openBoard(boardUrl: string): Promise<void> {
  const closed = new AbortController();
  const response = await fetch(new URL('/board/events', boardUrl), {
    headers: { authorization: `Bearer ${TOKENS.dana}` },
    signal: closed.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body?.getReader();
  void (async () => {
    while (reader && !(await reader.read().catch(() => ({ done: true }))).done) {}
  })();
  closing.push({ close: async () => closed.abort() });
}

/** The board's open questions, as Dana reads them. */
async function boardQuestions(boardUrl: string): Promise<{ id: string; question: string }[]> {
  const response = await fetch(new URL('/board/state', boardUrl), {
    headers: { authorization: `Bearer ${TOKENS.dana}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { questions: { id: string; question: string }[] }).questions;
}

/** Waits until `check` holds (a board state that follows a change), at most 20 s. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const places = {
  folder: async (dir: string) => ['--data-dir', join(dir, 'data')],
  postgres: async () => ['--database-url', inject('databaseUrl')],
};

describe.each(['folder', 'postgres'] as const)('a table of agents, lists in %s', (place) => {
  let dir: string;
  let server: ServerProcess;
  let boardUrl: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'raider-creds-'));
    const table = join(dir, 'agents.toml');
    await writeFile(table, TABLE);
    server = await spawnServer([
      '--agents',
      table,
      '--team',
      '--claims',
      '--board',
      '--wait-deadline',
      '5',
      ...(await places[place](dir)),
    ]);
    boardUrl = server.url.replace(/\/mcp$/, '/');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(closing.splice(0).map((c) => c.close().catch(() => {})));
    await stopServer(server);
    await rm(dir, { recursive: true, force: true });
  });

  it('never logs a token', () => {
    for (const token of Object.values(TOKENS)) expect(server.log()).not.toContain(token);
    expect(server.log()).toMatch(/agents table: 4 entries/);
  });

  it("refuses a request without a token of the table (401), and bob's token on the board (403)", async () => {
    expect((await post(server.url, {}, initialize)).status).toBe(401);
    expect((await post(server.url, { authorization: 'Bearer not-a-token-of-the-table' }, initialize)).status).toBe(401);
    const board = await fetch(new URL('/board/state', boardUrl), {
      headers: { authorization: `Bearer ${TOKENS.bob}` },
    });
    expect(board.status).toBe(403);
    expect(JSON.parse(await board.text()).error.message).toBe(
      'Forbidden: the token of "bob" may not open the board (board = true in the agents table allows it)',
    );
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
    const list = `creds-${place}-${era}-${randomUUID().slice(0, 8)}`;

    it('mallory claiming to be bob is refused on every tool (403, the same plain reason)', async () => {
      // What an honest client of bob's sees: the tools there are.
      const bob = await connect(server.url, era, list, 'bob');
      const tools = await bob.tools();
      expect(tools).toEqual(
        expect.arrayContaining(['task_create', 'task_claim', 'send_message', 'wait_for_messages', 'ask_user']),
      );
      const outcomes: Record<string, number> = {};
      const headers = { authorization: `Bearer ${TOKENS.mallory}`, 'x-raider-list': list, 'x-raider-agent': 'bob' };
      if (era === 'legacy') {
        // No session opens as bob: the initialize is refused, so no tool of bob's can be called.
        const refused = await post(server.url, headers, initialize);
        expect(refused.status).toBe(403);
        expect(JSON.parse(refused.text).error.message).toBe(FORBIDDEN_AS_BOB);
        await expect(connect(server.url, era, list, 'mallory', 'bob')).rejects.toThrow();
      }
      for (const tool of tools) {
        const answer = await post(server.url, headers, modernCall(tool, BOB_THINGS[tool] ?? {}));
        outcomes[tool] = answer.status;
        expect(JSON.parse(answer.text).error.message).toBe(FORBIDDEN_AS_BOB);
      }
      expect(Object.values(outcomes).every((status) => status === 403)).toBe(true);
      // Bob's list is untouched: no task was made.
      expect((await bob.call('task_list')).text).toBe('No tasks found');
    }, 60_000);

    if (era === 'legacy') {
      it("mallory's token does not carry on in bob's session, even with its id", async () => {
        const sessionId = (
          await fetch(server.url, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${TOKENS.bob}`,
              'x-raider-list': list,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: JSON.stringify(initialize),
          })
        ).headers.get('mcp-session-id') as string;
        expect(sessionId).toBeTruthy();
        const stolen = await post(
          server.url,
          {
            authorization: `Bearer ${TOKENS.mallory}`,
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-11-25',
          },
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'wait_for_messages', arguments: { timeoutSeconds: 0 } },
          },
        );
        expect(stolen.status).toBe(403);
        expect(JSON.parse(stolen.text).error.message).toBe(
          `Forbidden: this session is "bob"'s, and this token is "mallory"'s`,
        );
      });
    }

    it("as herself mallory reads only her inbox, and cannot take, complete or claim for bob's leased task", async () => {
      const alice = await connect(server.url, era, list, 'alice');
      const bob = await connect(server.url, era, list, 'bob');
      const bobAgain = await connect(server.url, era, list, 'bob');
      const mallory = await connect(server.url, era, list, 'mallory');
      // Every agent has connected: send_message knows them.
      expect((await alice.call('send_message', { to: 'bob', message: 'secret for bob' })).text).toBe(
        'Message sent to bob',
      );
      expect((await mallory.call('wait_for_messages', { timeoutSeconds: 0 })).text).toBe('No messages');
      // Bob's second session takes what came for bob (his inbox is his, whichever session).
      expect((await bobAgain.call('wait_for_messages', { timeoutSeconds: 0 })).text).toBe(
        'Message from alice: secret for bob',
      );
      expect((await bob.call('wait_for_messages', { timeoutSeconds: 0 })).text).toBe('No messages');

      // A sender is who the token says: no field of the call can make it alice.
      const forged = await mallory.call('send_message', { to: 'bob', message: 'I am alice', from: 'alice' });
      if (!forged.isError) {
        expect((await bob.call('wait_for_messages', { timeoutSeconds: 0 })).text).toBe(
          'Message from mallory: I am alice',
        );
      }
      expect((await mallory.call('send_message', { to: 'bob', message: 'hello' })).text).toBe('Message sent to bob');
      expect((await bob.call('wait_for_messages', { timeoutSeconds: 0 })).text).toBe('Message from mallory: hello');

      const created = await alice.call('task_create', { subject: 'Bob work', description: 'leased' });
      const id = /#(\d+)/.exec(created.text)?.[1] as string;
      expect((await bob.call('task_claim', { taskId: id, owner: 'bob', leaseSeconds: 600 })).text).toBe(
        `Claimed task #${id}: Bob work`,
      );
      // Bob's other session renews bob's lease (an update of the task he holds).
      const renewed = await bobAgain.call('task_update', { taskId: id, activeForm: 'Working on it' });
      expect(renewed.isError).toBe(false);
      // Mallory can neither complete it nor take it, nor claim anything for bob.
      const complete = await mallory.call('task_update', { taskId: id, status: 'completed' });
      expect(complete.isError).toBe(true);
      expect(complete.text).toMatch(
        new RegExp(
          `^Error: task #${id} is claimed by bob under bob's lease until \\S+Z; only bob can change it until then`,
        ),
      );
      const take = await mallory.call('task_claim', { taskId: id, owner: 'mallory' });
      expect(take.text).toMatch(new RegExp(`^Task #${id} is already claimed by bob under bob's lease, until \\S+Z$`));
      const forBob = await mallory.call('task_claim', { taskId: id, owner: 'bob' });
      expect(forBob.isError).toBe(true);
      expect(forBob.text).toContain(
        'owner: expected "mallory" (task_claim claims for the agent this call is authenticated as), received "bob"',
      );
      // Still bob's, in progress (task_list shows the owner; task_get, as Claude Code's, does not).
      expect((await alice.call('task_get', { taskId: id })).text).toContain('Status: in_progress');
      expect((await alice.call('task_list')).text).toMatch(new RegExp(`#${id} \\[in_progress\\] Bob work \\(bob\\)`));
    }, 60_000);

    it("the board's answer names the person, and mallory cannot read bob's question", async () => {
      await openBoard(boardUrl);
      const bob = await connect(server.url, era, list, 'bob');
      const mallory = await connect(server.url, era, list, 'mallory');
      const question = `Which branch, ${era}?`;
      const asking = bob.texts('ask_user', { question, options: ['main', 'dev'] });
      const open = await eventually(
        () => boardQuestions(boardUrl),
        (questions) => questions.some((entry) => entry.question === question),
      );
      const entry = open.find((candidate) => candidate.question === question);
      expect(entry).toBeDefined();
      const answered = await fetch(new URL('/board/answer', boardUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.dana}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: entry?.id, answer: 'main' }),
      });
      expect(answered.status).toBe(200);
      const texts = await asking;
      expect(texts).toEqual(['main', 'Answered by "Dana" at raider/board.']);
      const askId = /ask_\d+/.exec(JSON.stringify(await bob.client.readResource({ uri: 'raider://work' })))?.[0];
      const resumed = await mallory.call('ask_user', { resume: askId ?? 'ask_1' });
      expect(resumed.isError).toBe(true);
      expect(resumed.text).toMatch(
        /was asked by "bob", not by "mallory"; only the agent that asked can read its answer/,
      );
      // A person's message names the person (a shared list's key on the board is its id).
      const sent = await fetch(new URL('/board/message', boardUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.dana}`, 'content-type': 'application/json' },
        body: JSON.stringify({ list, to: 'bob', message: 'Go with main.' }),
      });
      expect(sent.status).toBe(200);
      expect((await bob.call('wait_for_messages', { timeoutSeconds: 0 })).text).toBe(
        'Message from Dana at raider/board: Go with main.',
      );
    }, 60_000);
  });
});
