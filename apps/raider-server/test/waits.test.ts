// Waits that outlive the host's clock (issue 28), with real server processes: a client whose
// request timeout is 10 s, a server whose deadline is 3 s. A question still open at the deadline is
// answered as such, stays on the board, and a resumed call gets the answer a person gave meanwhile;
// progress comes at the interval; a cancelled resume leaves the question open; an answer given
// while nobody waits reaches the asking agent's inbox; an expired question says so plainly; a
// restart says plainly that open questions were lost. Over the 2026 era, a client that answers
// forms holds no call at all.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, textOf } from './helpers.js';

const REQUEST_TIMEOUT_MS = 10_000;

/** A server process over HTTP with the board, and what it logged. */
interface ServerProcess {
  url: string;
  boardUrl: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const running: ServerProcess[] = [];
const clients: { close(): Promise<unknown> }[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(running.splice(0).map((server) => server.stop()));
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Starts `raider-server --http --port 0 --board` with `args`, and waits for its URLs in the log. */
async function startServer(args: string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI, '--http', '--port', '0', '--board', '--log-level', 'info', ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const urls = await new Promise<{ url: string; boardUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${log}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (process.env.RAIDER_TEST_SERVER_LOG) process.stderr.write(chunk);
      log += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(log)?.[1];
      const boardUrl = /the board: (http:\/\/\S+)/.exec(log)?.[1];
      if (url && boardUrl) {
        clearTimeout(timer);
        resolve({ url, boardUrl });
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${log}`)));
  });
  const server: ServerProcess = {
    ...urls,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
  running.push(server);
  await openBoard(server);
  return server;
}

/** A 2025-era client of `server` (no elicitation: the board asks), as `agent` when given. */
async function legacyClient(server: ServerProcess, agent?: string) {
  const client = new Client({ name: 'waits-test', version: '1.0.0' });
  clients.push(client);
  const headers: Record<string, string> = agent ? { 'x-raider-agent': agent } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  return client;
}

/** A person has the board open (its event stream, as the page holds it): the board asks only then. */
async function openBoard(server: ServerProcess): Promise<void> {
  const board = new URL(server.boardUrl);
  const token = board.searchParams.get('token') as string;
  const closed = new AbortController();
  const response = await fetch(new URL('/board/events', board), {
    headers: { cookie: `raider_token=${token}` },
    signal: closed.signal,
  });
  expect(response.status).toBe(200);
  // Read as a page reads it: a body nobody holds is collected and its stream closed under us.
  const reader = response.body?.getReader();
  void (async () => {
    while (reader && !(await reader.read().catch(() => ({ done: true }))).done) {}
  })();
  clients.push({ close: async () => closed.abort() });
}

/** The board's open questions, read the way the page reads them (its secret as a cookie). */
async function boardQuestions(server: ServerProcess): Promise<{ id: string; question: string }[]> {
  const board = new URL(server.boardUrl);
  const token = board.searchParams.get('token') as string;
  const response = await fetch(new URL('/board/state', board), { headers: { cookie: `raider_token=${token}` } });
  return ((await response.json()) as { questions: { id: string; question: string }[] }).questions;
}

/** A person answers the board's question `question` with `answer`. */
async function answerOnBoard(server: ServerProcess, question: string, answer: string): Promise<void> {
  const open = (await boardQuestions(server)).find((entry) => entry.question === question);
  if (!open) throw new Error(`the board shows no question "${question}"`);
  const board = new URL(server.boardUrl);
  const token = board.searchParams.get('token') as string;
  const response = await fetch(new URL('/board/answer', board), {
    method: 'POST',
    headers: { cookie: `raider_token=${token}`, 'content-type': 'application/json', origin: board.origin },
    body: JSON.stringify({ id: open.id, answer }),
  });
  expect(response.status).toBe(200);
}

const stillOpen = (id: string) =>
  `The question is still open as ${id}; nobody has answered yet. Call ask_user with {"resume": "${id}"} to keep waiting for the answer, or decide for yourself and say what you assumed.`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a question that outlives its call (2025 era, real processes, deadline 3 s)', () => {
  it('answers "still open" at the deadline with progress at the interval; an answer given at 8 s reaches a resumed call', async () => {
    const server = await startServer(['--wait-deadline', '3', '--progress-interval', '1']);
    const client = await legacyClient(server);
    const progress: number[] = [];
    const asked = Date.now();
    const first = await client.callTool(
      { name: 'ask_user', arguments: { question: 'Which database?', options: ['PostgreSQL', 'SQLite'] } },
      undefined,
      { timeout: REQUEST_TIMEOUT_MS, onprogress: (event) => progress.push(event.progress) },
    );
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toBe(stillOpen('ask_1'));
    // Progress at the interval: about one a second for the three seconds it waited.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress).toEqual(progress.map((_, index) => index + 1));
    // Still open: on the board and in raider://work, as the registry's running entry ask_1.
    expect((await boardQuestions(server)).map((entry) => entry.question)).toEqual(['Which database?']);
    const work = JSON.parse(
      ((await client.readResource({ uri: 'raider://work' })).contents[0] as { text: string }).text,
    ) as { id: string; status: string }[];
    expect(work.find((entry) => entry.id === 'ask_1')?.status).toBe('running');

    // The model resumes, each call until its deadline, while a person answers 8 s after the question was asked.
    const person = sleep(Math.max(0, 8_000 - (Date.now() - asked))).then(() =>
      answerOnBoard(server, 'Which database?', 'PostgreSQL'),
    );
    const answers: (string | undefined)[] = [];
    for (let round = 0; round < 5 && answers.at(-1) !== 'PostgreSQL'; round += 1) {
      const resumed = await client.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } }, undefined, {
        timeout: REQUEST_TIMEOUT_MS,
      });
      expect(resumed.isError).toBeFalsy();
      answers.push(textOf(resumed));
    }
    await person;
    // Every call before the answer said it was still open; the one waiting when it came got it.
    expect(answers.at(-1)).toBe('PostgreSQL');
    expect(answers.slice(0, -1)).toEqual(answers.slice(0, -1).map(() => stillOpen('ask_1')));
    expect(answers.length).toBeGreaterThanOrEqual(2);
    // Recorded: the registry's entry ended with the answer as its report; the board is clear.
    const after = JSON.parse(
      ((await client.readResource({ uri: 'raider://work' })).contents[0] as { text: string }).text,
    ) as { id: string; status: string; report?: string }[];
    expect(after.find((entry) => entry.id === 'ask_1')).toMatchObject({ status: 'completed', report: 'PostgreSQL' });
    expect(await boardQuestions(server)).toEqual([]);
    // Reading does not consume it: a call whose result was lost on the way loses nothing.
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } }))).toBe('PostgreSQL');
  }, 120_000);

  it('a cancelled resume leaves the question open; an answer given while nobody waits is kept and announced', async () => {
    const server = await startServer(['--wait-deadline', '3', '--agent', 'alice']);
    const client = await legacyClient(server);
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'Ship today?' } }))).toBe(
      stillOpen('ask_1'),
    );
    const cancel = new AbortController();
    const cancelled = client.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } }, undefined, {
      signal: cancel.signal,
      timeout: REQUEST_TIMEOUT_MS,
    });
    await sleep(500);
    cancel.abort();
    const outcome = await cancelled.then(
      (result) => `answered: ${textOf(result)}`,
      (error: Error) => `rejected: ${error.name}`,
    );
    // The SDK's client rejects a call its signal aborted (McpError: the request was cancelled).
    expect(outcome).toBe('rejected: McpError');
    await sleep(300);
    expect((await boardQuestions(server)).map((entry) => entry.question)).toEqual(['Ship today?']);
    // Answered while no call waits: kept, and the asking agent hears of it in its inbox.
    await answerOnBoard(server, 'Ship today?', 'Yes, after lunch');
    const inbox = await client.callTool({ name: 'wait_for_messages', arguments: { timeoutSeconds: 10 } });
    expect(textOf(inbox)).toBe(
      [
        '<task-notification>',
        '<task-id>ask_1</task-id>',
        '<status>completed</status>',
        '<summary>Your question ask_1 ("Ship today?") was answered; call ask_user with {"resume": "ask_1"} to read the answer</summary>',
        '</task-notification>',
      ].join('\n'),
    );
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } }))).toBe(
      'Yes, after lunch',
    );
  }, 120_000);

  it('an expired question is a plain answer; a bad resume is a readable error; wait_for_messages answers "No messages yet"', async () => {
    const server = await startServer(['--wait-deadline', '3', '--question-expiry', '4', '--team']);
    const client = await legacyClient(server);
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'Tabs or spaces?' } }))).toBe(
      stillOpen('ask_1'),
    );
    await sleep(1_500);
    const expired = await client.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } });
    expect(expired.isError).toBeFalsy();
    expect(textOf(expired)).toBe(
      'The question ask_1 expired: nobody answered it within 4 seconds. Decide for yourself, go on, and say in your reply what you assumed.',
    );
    expect(await boardQuestions(server)).toEqual([]);
    const bad = await client.callTool({ name: 'ask_user', arguments: { resume: 3 } });
    expect(textOf(bad)).toBe('Error: resume: expected the id of an open question such as "ask_3", received 3');
    const mixed = await client.callTool({ name: 'ask_user', arguments: { resume: 'ask_1', question: 'Again?' } });
    expect(textOf(mixed)).toBe('Error: unknown argument "question" beside resume: expected {"resume": "ask_3"} alone');
    // The waits: the deadline (3 s) comes before timeoutSeconds (10): "No messages yet".
    const waited = await client.callTool({ name: 'wait_for_messages', arguments: { timeoutSeconds: 10 } }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    });
    expect(textOf(waited)).toBe('No messages yet');
    // A wait shorter than the deadline ends as before.
    expect(textOf(await client.callTool({ name: 'wait_for_messages', arguments: { timeoutSeconds: 1 } }))).toBe(
      'No messages',
    );
  }, 120_000);

  it('a restart of the server with a durable list says plainly that open questions were lost', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'raider-waits-'));
    folders.push(dataDir);
    const args = ['--wait-deadline', '3', '--data-dir', dataDir, '--list', 'waits'];
    const first = await startServer(args);
    const before = await legacyClient(first);
    await before.callTool({ name: 'task_create', arguments: { subject: 'Kept', description: '' } });
    expect(textOf(await before.callTool({ name: 'ask_user', arguments: { question: 'Deploy?' } }))).toBe(
      stillOpen('ask_1'),
    );
    // A client that reconnects (a new session on the same list) resumes it: still open.
    const reconnected = await legacyClient(first);
    expect(textOf(await reconnected.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } }))).toBe(
      stillOpen('ask_1'),
    );
    await first.stop();
    const second = await startServer(args);
    const after = await legacyClient(second);
    // The list is durable; the question lived in the first process's memory.
    expect(textOf(await after.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Kept');
    const lost = await after.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } });
    expect(lost.isError).toBe(true);
    expect(textOf(lost)).toBe(
      "Error: resume: no open question ask_1 on this server: it was never asked here, its answer expired, or the server restarted (open questions live in the server's memory and a restart loses them). Ask again if you still need the answer.",
    );
  }, 120_000);
});

describe('what a question survives (2025 era, real processes, deadline 3 s)', () => {
  it('only the agent that asked may resume; an idle sweep keeps the session of an open question', async () => {
    const list = `waits-${Date.now()}`;
    const server = await startServer(['--wait-deadline', '3', '--idle-timeout', '2', '--list', list, '--team']);
    const alice = await legacyClient(server, 'alice');
    expect(textOf(await alice.callTool({ name: 'ask_user', arguments: { question: 'The staging key?' } }))).toMatch(
      /^The question is still open as ask_\d+;/,
    );
    const bob = await legacyClient(server, 'bob');
    const id = (await boardQuestions(server)).length === 1 ? await openId(alice) : '';
    const refused = await bob.callTool({ name: 'ask_user', arguments: { resume: id } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      `Error: resume: ${id} was asked by "alice", not by "bob"; only the agent that asked can read its answer`,
    );
    // bob leaves (his session, with no question open, would be swept under his client otherwise).
    await bob.close();
    // Past the idle timeout (2 s, swept every 0.5 s) with nothing in flight: the open question keeps alice's session.
    await sleep(3_500);
    await answerOnBoard(server, 'The staging key?', 'in the vault');
    expect(textOf(await alice.callTool({ name: 'ask_user', arguments: { resume: id } }))).toBe('in the vault');
  }, 120_000);

  it('a resume whose stream dropped took nothing: the answer is read by the next resume', async () => {
    const server = await startServer(['--wait-deadline', '5']);
    const client = await legacyClient(server);
    const transport = (client as unknown as { _transport: { sessionId?: string } })._transport;
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'Squash?' } }))).toBe(
      stillOpen('ask_1'),
    );
    // A resume on a connection the host cut: the POST's stream goes away without a cancel.
    const cut = new AbortController();
    const dropped = fetch(server.url, {
      method: 'POST',
      signal: cut.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId as string,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 99,
        method: 'tools/call',
        params: { name: 'ask_user', arguments: { resume: 'ask_1' } },
      }),
    }).catch(() => undefined);
    await sleep(500);
    cut.abort();
    await dropped;
    await answerOnBoard(server, 'Squash?', 'yes, squash');
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } }))).toBe('yes, squash');
  }, 120_000);

  it("a form answered after the call's deadline is not lost: the resume reads it without asking again", async () => {
    const server = await startServer(['--wait-deadline', '3']);
    const forms: string[] = [];
    const client = new Client(
      { name: 'waits-form', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      forms.push(request.params.message);
      await sleep(5_000);
      return { action: 'accept', content: { answer: 'Friday' } };
    });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'Release day?' } }))).toBe(
      stillOpen('ask_1'),
    );
    const answers: (string | undefined)[] = [];
    for (let round = 0; round < 4 && answers.at(-1) !== 'Friday'; round += 1) {
      answers.push(textOf(await client.callTool({ name: 'ask_user', arguments: { resume: 'ask_1' } })));
    }
    expect(answers.at(-1)).toBe('Friday');
    expect(forms).toEqual(['Release day?']);
  }, 120_000);
});

/** The id of the one open question in raider://work. */
async function openId(client: Client): Promise<string> {
  const work = JSON.parse(
    ((await client.readResource({ uri: 'raider://work' })).contents[0] as { text: string }).text,
  ) as {
    id: string;
    kind: string;
    status: string;
  }[];
  const open = work.filter((entry) => entry.kind === 'ask' && entry.status === 'running');
  expect(open).toHaveLength(1);
  return (open[0] as { id: string }).id;
}

describe('the 2026 era (real processes, deadline 3 s)', () => {
  /** A 2026-era client of `server`, answering forms with `answer` after `delayMs` when given. */
  async function modernClient(server: ServerProcess, answerForms?: { answer: string; delayMs: number }) {
    const client = new ModernClient(
      { name: 'waits-modern', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        ...(answerForms ? { capabilities: { elicitation: { form: {} } } } : {}),
      },
    );
    if (answerForms) {
      client.setRequestHandler('elicitation/create', async () => {
        await sleep(answerForms.delayMs);
        return { action: 'accept', content: { answer: answerForms.answer } };
      });
    }
    clients.push(client);
    await client.connect(new ModernHttpTransport(new URL(server.url)));
    expect(client.getProtocolEra()).toBe('modern');
    return client;
  }

  it('a client that answers forms is asked through input_required and holds no call: an answer after 8 s arrives', async () => {
    const server = await startServer(['--wait-deadline', '3']);
    const client = await modernClient(server, { answer: 'Blue', delayMs: 8_000 });
    const result = await client.callTool(
      { name: 'ask_user', arguments: { question: 'Which colour?' } },
      { timeout: REQUEST_TIMEOUT_MS },
    );
    expect(textOf(result)).toBe('Blue');
    expect(await boardQuestions(server)).toEqual([]);
  }, 120_000);

  it('a client that cannot answer forms: still open at the deadline, answered on the board, read by a resume', async () => {
    const server = await startServer(['--wait-deadline', '3']);
    const client = await modernClient(server);
    const first = await client.callTool(
      { name: 'ask_user', arguments: { question: 'Which region?' } },
      { timeout: REQUEST_TIMEOUT_MS },
    );
    expect(textOf(first)).toBe(stillOpen('ask_1'));
    await answerOnBoard(server, 'Which region?', 'eu-west-1');
    const resumed = await client.callTool(
      { name: 'ask_user', arguments: { resume: 'ask_1' } },
      { timeout: REQUEST_TIMEOUT_MS },
    );
    expect(textOf(resumed)).toBe('eu-west-1');
  }, 120_000);
});
