// The 2026-07-28 era (SDK v2 clients that negotiate it): the same tools with the same answers as
// the 2025 era, over HTTP (no session: the list a request names) and stdio (era per connection);
// ask_user by input_required, raider://tasks changes through subscriptions/listen.
import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, type HttpServer, readOptions, type ServerOptions, startHttp } from '../src/index.js';
import { CLI, textOf } from './helpers.js';

const servers: HttpServer[] = [];
const clients: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(overrides: Partial<ServerOptions> = {}) {
  const server = await startHttp({ ...readOptions(['--http', '--port', '0'], {}), ...overrides });
  servers.push(server);
  return server;
}

type Elicit = (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> };

/** A v2 client pinned to 2026-07-28, eliciting when `elicit` is given. */
function modernClient(elicit?: Elicit): Client {
  const client = new Client(
    { name: 'modern-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params.message));
  clients.push(client);
  return client;
}

async function overHttp(url: string, options: { list?: string; elicit?: Elicit } = {}) {
  const client = modernClient(options.elicit);
  const headers: Record<string, string> = options.list ? { 'X-Raider-List': options.list } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe('the 2026 era over HTTP', () => {
  it('negotiates 2026-07-28 with no session, and the task tools answer as in the 2025 era', async () => {
    const server = await serve({ list: 'modern-basics' });
    const client = await overHttp(server.url);
    expect(client.getProtocolEra()).toBe('modern');
    expect(server.sessions.size).toBe(0);
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['ask_user', 'task_create', 'task_get', 'task_list', 'task_update']);
    expect(textOf(await client.callTool({ name: 'task_create', arguments: { subject: 'A', description: 'a' } }))).toBe(
      'Task #1 created successfully: A',
    );
    expect(textOf(await client.callTool({ name: 'task_create', arguments: { subject: 'B', description: 'b' } }))).toBe(
      'Task #2 created successfully: B',
    );
    expect(
      textOf(await client.callTool({ name: 'task_update', arguments: { taskId: '2', addBlockedBy: ['1'] } })),
    ).toBe('Updated task #2 blockedBy');
    expect(textOf(await client.callTool({ name: 'task_list', arguments: {} }))).toBe(
      '#1 [pending] A\n#2 [pending] B [blocked by #1]',
    );
    expect(textOf(await client.callTool({ name: 'task_get', arguments: { taskId: '2' } }))).toBe(
      'Task #2: B\nStatus: pending\nDescription: b\nBlocked by: #1',
    );
    // Still no session: every request stood alone.
    expect(server.sessions.size).toBe(0);
  });

  it('a 2025-era client and a 2026-era one on the same endpoint and list see one list', async () => {
    const server = await serve({ list: 'both-eras' });
    const modern = await overHttp(server.url);
    const legacy = new V1Client({ name: 'legacy', version: '1.0.0' });
    await legacy.connect(new V1HttpTransport(new URL(server.url)));
    clients.push(legacy);
    await modern.callTool({ name: 'task_create', arguments: { subject: 'From 2026', description: '' } });
    await legacy.callTool({ name: 'task_create', arguments: { subject: 'From 2025', description: '' } });
    const listed = '#1 [pending] From 2026\n#2 [pending] From 2025';
    expect(textOf(await legacy.callTool({ name: 'task_list', arguments: {} }))).toBe(listed);
    expect(textOf(await modern.callTool({ name: 'task_list', arguments: {} }))).toBe(listed);
    expect(server.sessions.size).toBe(1);
  });

  it('X-Raider-List chooses the list; a client that names none gets the server default list', async () => {
    const server = await serve();
    const red = await overHttp(server.url, { list: 'red' });
    const blue = await overHttp(server.url, { list: 'blue' });
    const first = await overHttp(server.url);
    const second = await overHttp(server.url);
    await red.callTool({ name: 'task_create', arguments: { subject: 'Red', description: '' } });
    await blue.callTool({ name: 'task_create', arguments: { subject: 'Blue', description: '' } });
    await first.callTool({ name: 'task_create', arguments: { subject: 'Default', description: '' } });
    expect(textOf(await red.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Red');
    expect(textOf(await blue.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Blue');
    expect(textOf(await second.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Default');
  });

  it('a bad X-Raider-List is refused with a 400 that says why, and nothing is served', async () => {
    const server = await serve();
    const answer = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
        'x-raider-list': '../etc',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      }),
    });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/^Bad x-raider-list header: list id /);
    expect(body.error.message.length).toBeLessThan(300);
  });

  it('ask_user asks with input_required and reads the answer from the retry', async () => {
    const server = await serve({ list: 'modern-ask' });
    const asked: string[] = [];
    const client = await overHttp(server.url, {
      elicit: (message) => {
        asked.push(message);
        return { action: 'accept', content: { answer: 'Postgres' } };
      },
    });
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'Which database?' } }))).toBe(
      'Postgres',
    );
    expect(asked).toEqual(['Which database?']);
  });

  it("a question's signed state: a retry another server takes is answered with the same --state-secret, refused without", async () => {
    const secret = 'k'.repeat(40);
    const asking = await serve({ list: 'two-servers', stateSecret: secret });
    const sharing = await serve({ list: 'two-servers', stateSecret: secret });
    const other = await serve({ list: 'two-servers', stateSecret: 'o'.repeat(40) });
    /** A client whose first round goes to `asking` and whose retry (it carries the answer) goes to `retry`. */
    const split = async (retry: HttpServer) => {
      const client = modernClient(() => ({ action: 'accept', content: { answer: 'Either' } }));
      await client.connect(
        new StreamableHTTPClientTransport(new URL(asking.url), {
          fetch: (url, init) => {
            const answers = typeof init?.body === 'string' && init.body.includes('"inputResponses"');
            return fetch(answers ? retry.url : url, init);
          },
        }),
      );
      return client;
    };
    const shared = await split(sharing);
    expect(textOf(await shared.callTool({ name: 'ask_user', arguments: { question: 'Which?' } }))).toBe('Either');
    const foreign = await split(other);
    const refused = await foreign.callTool({ name: 'ask_user', arguments: { question: 'Which?' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      "The question could not be put to the user: the client's answer came back without the question's signed state. Decide for yourself, go on, and say in your reply what you assumed.",
    );
  });

  it('a client that cannot answer a form gets the plain refusal', async () => {
    const server = await serve({ list: 'modern-refusal' });
    const client = await overHttp(server.url);
    const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Anyone?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Nobody can answer questions in this session: no person is at the keyboard to answer. Decide for yourself, go on, and say in your reply what you assumed.',
    );
  });

  it('a change of raider://tasks reaches a subscriptions/listen subscriber, and reads show it', async () => {
    const server = await serve({ list: 'modern-listen' });
    const watcher = await overHttp(server.url);
    const writer = await overHttp(server.url);
    const updated: string[] = [];
    watcher.setNotificationHandler('notifications/resources/updated', (notification) => {
      updated.push(notification.params.uri);
    });
    const subscription = await watcher.listen({ resourceSubscriptions: ['raider://tasks'] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual(['raider://tasks']);
    await writer.callTool({ name: 'task_create', arguments: { subject: 'Seen', description: '' } });
    await expect.poll(() => updated, { timeout: 10_000 }).toContain('raider://tasks');
    const read = await watcher.readResource({ uri: 'raider://tasks' });
    const state = JSON.parse((read.contents[0] as { text: string }).text) as { tasks: { content: string }[] };
    expect(state.tasks.map((t) => t.content)).toEqual(['Seen']);
    await subscription.close();
  });

  // SDK v2 answers an unknown tool with a JSON-RPC error in both eras (the 2026 revision says so);
  // the v1 server answered the same text as an error result.
  it('an unknown tool is JSON-RPC error -32602 "Tool … not found" in either era, not an error result', async () => {
    const server = await serve({ list: 'modern-unknown' });
    const client = await overHttp(server.url);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Tool no_such_tool not found'),
    });
    const legacy = new V1Client({ name: 'legacy', version: '1.0.0' });
    await legacy.connect(new V1HttpTransport(new URL(server.url)));
    clients.push(legacy);
    await expect(legacy.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Tool no_such_tool not found',
    });
  });
});

describe('a shutdown with 2026-era listen streams open', () => {
  it('HTTP: the streams end gracefully and are not waited on as calls in flight', async () => {
    const lines: string[] = [];
    const server = await startHttp(
      { ...readOptions(['--http', '--port', '0', '--list', 'shutdown-listen'], {}) },
      createLogger('warn', (line) => lines.push(line)),
    );
    const client = await overHttp(server.url);
    const subscription = await client.listen({ resourceSubscriptions: ['raider://tasks'] });
    await server.close(4000);
    expect(await subscription.closed).toBe('graceful');
    expect(lines.filter((line) => line.includes('still running'))).toEqual([]);
  });

  it('stdio: the client going away ends the server, which waits for no listen stream as a call', async () => {
    const child = spawn(process.execPath, [CLI, '--list', 'stdio-shutdown', '--log-level', 'warn'], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'subscriptions/listen',
      params: { _meta: meta, notifications: { resourceSubscriptions: ['raider://tasks'] } },
    });
    await expect.poll(() => stdout.includes('subscriptions/acknowledged'), { timeout: 20_000 }).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end();
    // It exits by itself (nobody kills it), and did not wait out its grace for the stream.
    expect(await exited).toBe(0);
    expect(stderr).not.toContain('still running');
  }, 30_000);
});

describe('the 2026 era over stdio', () => {
  it('a v2 client that probes gets 2026-07-28; the tools and ask_user answer as in the 2025 era', async () => {
    const client = modernClient(() => ({ action: 'accept', content: { answer: 'yes' } }));
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, '--list', 'stdio-modern'],
        env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
        stderr: 'ignore',
      }),
    );
    expect(client.getProtocolEra()).toBe('modern');
    expect(textOf(await client.callTool({ name: 'task_create', arguments: { subject: 'S', description: '' } }))).toBe(
      'Task #1 created successfully: S',
    );
    expect(textOf(await client.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] S');
    expect(textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'Go on?' } }))).toBe('yes');
  }, 30_000);

  it('auto negotiation over stdio also lands on 2026-07-28, and a change reaches the listen stream', async () => {
    const client = new Client({ name: 'auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, '--list', 'stdio-listen'],
        env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
        stderr: 'ignore',
      }),
    );
    expect(client.getProtocolEra()).toBe('modern');
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push(n.params.uri);
    });
    await client.listen({ resourceSubscriptions: ['raider://tasks'] });
    await client.callTool({ name: 'task_create', arguments: { subject: 'Heard', description: '' } });
    await expect.poll(() => updated, { timeout: 10_000 }).toContain('raider://tasks');
  }, 30_000);
});
