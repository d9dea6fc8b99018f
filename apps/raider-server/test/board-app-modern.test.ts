// The board app in the 2026-07-28 era: no initialize, so a client announces MCP Apps in each
// request's envelope (its capabilities, as SDK v2 clients send them). Over HTTP the server made
// for a request offers the app when that request announces it; over stdio the one server of the
// connection offers it from the first request that does.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps';
import { EXTENSION_ID, getUiCapability } from '@modelcontextprotocol/ext-apps/server';
import { afterEach, describe, expect, it } from 'vitest';
import { BOARD_APP_URI, rendersApps } from '../src/features/board-app/board-app.js';
import { type HttpServer, readOptions, type ServerOptions, startHttp } from '../src/index.js';
import { CLI, textOf } from './helpers.js';

/** What a host that renders MCP Apps declares (ext-apps' EXTENSION_ID, with the app MIME type). */
const APPS = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const TASK_TOOLS = ['ask_user', 'task_create', 'task_get', 'task_list', 'task_update'];
const APP_TOOLS = ['board_answer', 'board_set_status', 'board_state'];

const servers: HttpServer[] = [];
const closers: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map(async (c) => await Promise.resolve(c.close()).catch(() => {})));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(overrides: Partial<ServerOptions> = {}, args: string[] = []) {
  const server = await startHttp({ ...readOptions(['--http', '--port', '0', ...args], {}), ...overrides });
  servers.push(server);
  return server;
}

/** A v2 client pinned to 2026-07-28, with `capabilities`. */
function modernClient(capabilities: Record<string, unknown> = {}): Client {
  const client = new Client(
    { name: 'modern-apps-host', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities },
  );
  closers.push(client);
  return client;
}

async function overHttp(url: string, capabilities: Record<string, unknown> = {}) {
  const client = modernClient(capabilities);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

async function overStdio(capabilities: Record<string, unknown>, args: string[] = []) {
  const client = modernClient(capabilities);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...args],
      env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
      stderr: 'ignore',
    }),
  );
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

/** What a client sees of the app: the tools, task_list's link, the resources, the app's HTML. */
async function appAsSeen(client: Client) {
  const tools = (await client.listTools()).tools;
  const resources = (await client.listResources()).resources.map((r) => r.uri);
  return {
    names: tools.map((t) => t.name).sort(),
    listMeta: tools.find((t) => t.name === 'task_list')?._meta,
    appMeta: tools.find((t) => t.name === 'board_state')?._meta,
    resources,
  };
}

describe('ext-apps 2.x names the extension as the server does', () => {
  it('getUiCapability finds what the test hosts declare, and rendersApps agrees', () => {
    expect(getUiCapability(APPS)).toEqual({ mimeTypes: [RESOURCE_MIME_TYPE] });
    expect(rendersApps(APPS)).toBe(true);
    expect(rendersApps({ extensions: { [EXTENSION_ID]: { mimeTypes: ['text/html'] } } })).toBe(false);
    expect(rendersApps({})).toBe(false);
  });
});

describe('the board app in the 2026 era over HTTP', () => {
  it('a client that announces MCP Apps in its envelope gets the app tools, the link and the ui:// resource', async () => {
    const server = await serve({ list: 'modern-app' });
    const host = await overHttp(server.url, APPS);
    const seen = await appAsSeen(host);
    expect(seen.names).toEqual([...APP_TOOLS, ...TASK_TOOLS].sort());
    expect(seen.listMeta).toEqual({ ui: { resourceUri: BOARD_APP_URI }, 'ui/resourceUri': BOARD_APP_URI });
    expect(seen.appMeta).toEqual({ ui: { visibility: ['app'] } });
    expect(seen.resources).toContain(BOARD_APP_URI);
    const read = await host.readResource({ uri: BOARD_APP_URI });
    const content = read.contents[0] as { mimeType?: string; text?: string; _meta?: Record<string, unknown> };
    expect(content.mimeType).toBe(RESOURCE_MIME_TYPE);
    expect(content.text).toMatch(/^<!doctype html>/i);
    expect(content._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });

    // The app-only tools answer as in the 2025 era, on the same list.
    await host.callTool({ name: 'task_create', arguments: { subject: 'Drawn', description: '' } });
    const state = await host.callTool({ name: 'board_state', arguments: {} });
    expect(state.structuredContent).toMatchObject({ tasks: [{ id: '1', title: 'Drawn', status: 'pending' }] });
    expect(
      textOf(await host.callTool({ name: 'board_set_status', arguments: { taskId: '1', status: 'in_progress' } })),
    ).toBe('Updated task #1 status');
    const unknown = await host.callTool({ name: 'board_set_status', arguments: { taskId: '9', status: 'completed' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('Error: taskId: expected the id of a task on the list, received "9" (no task #9)');
  });

  it('a client that does not announce it, on the same list, sees none of it', async () => {
    const server = await serve({ list: 'modern-app-mixed' });
    const host = await overHttp(server.url, APPS);
    const plain = await overHttp(server.url);
    expect((await appAsSeen(host)).names).toContain('board_state');
    const seen = await appAsSeen(plain);
    expect(seen.names).toEqual(TASK_TOOLS);
    for (const tool of (await plain.listTools()).tools) expect(tool._meta).toBeUndefined();
    expect(seen.resources).toEqual(['raider://tasks', 'raider://work']);
    await expect(plain.readResource({ uri: BOARD_APP_URI })).rejects.toThrow(/not found/i);
    await expect(plain.callTool({ name: 'board_state', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('--no-board-app turns it off in this era too', async () => {
    const server = await serve({ list: 'modern-app-off' }, ['--no-board-app']);
    const host = await overHttp(server.url, APPS);
    const seen = await appAsSeen(host);
    expect(seen.names).toEqual(TASK_TOOLS);
    expect(seen.listMeta).toBeUndefined();
    expect(seen.resources).not.toContain(BOARD_APP_URI);
  });

  it('a client that cannot answer forms has ask_user answered in the open app (board_answer)', async () => {
    const server = await serve({ list: 'modern-app-ask' });
    const host = await overHttp(server.url, APPS);
    // The app is open: it asked for the state.
    await host.callTool({ name: 'board_state', arguments: {} });
    const asked = host.callTool({
      name: 'ask_user',
      arguments: { question: 'Which port?', options: ['3000', '8080'] },
    });
    let questionId: string | undefined;
    await expect
      .poll(
        async () => {
          const state = await host.callTool({ name: 'board_state', arguments: {} });
          const questions = (state.structuredContent as { questions: { id: string; question: string }[] }).questions;
          questionId = questions.find((q) => q.question === 'Which port?')?.id;
          return questionId;
        },
        { timeout: 10_000 },
      )
      .toBeDefined();
    expect(textOf(await host.callTool({ name: 'board_answer', arguments: { questionId, answer: '8080' } }))).toBe(
      'Answered',
    );
    expect(textOf(await asked)).toBe('8080');
  });
});

describe('the board app in the 2026 era over stdio', () => {
  it('a client that announces MCP Apps gets the app from its first request on', async () => {
    const host = await overStdio(APPS);
    const seen = await appAsSeen(host);
    expect(seen.names).toEqual([...APP_TOOLS, ...TASK_TOOLS].sort());
    expect(seen.listMeta).toEqual({ ui: { resourceUri: BOARD_APP_URI }, 'ui/resourceUri': BOARD_APP_URI });
    expect(seen.resources).toContain(BOARD_APP_URI);
    const read = await host.readResource({ uri: BOARD_APP_URI });
    expect((read.contents[0] as { mimeType?: string }).mimeType).toBe(RESOURCE_MIME_TYPE);
    await host.callTool({ name: 'task_create', arguments: { subject: 'Over stdio', description: '' } });
    const state = await host.callTool({ name: 'board_state', arguments: {} });
    expect(state.structuredContent).toMatchObject({ tasks: [{ title: 'Over stdio' }] });
  }, 30_000);

  it('a client that does not announce it sees none of it', async () => {
    const plain = await overStdio({});
    const seen = await appAsSeen(plain);
    expect(seen.names).toEqual(TASK_TOOLS);
    expect(seen.listMeta).toBeUndefined();
    expect(seen.resources).not.toContain(BOARD_APP_URI);
  }, 30_000);

  it('the `todo` family links its one tool to the app too', async () => {
    const host = await overStdio(APPS, ['--family', 'todo']);
    const tools = (await host.listTools()).tools;
    expect(tools.find((t) => t.name === 'todo')?._meta).toEqual({
      ui: { resourceUri: BOARD_APP_URI },
      'ui/resourceUri': BOARD_APP_URI,
    });
    expect(tools.map((t) => t.name)).toContain('board_state');
  }, 30_000);

  it('announced only by a later request: offered then, with tools/list_changed on the listen stream', async () => {
    const wire = rawStdio();
    const envelope = (capabilities: Record<string, unknown>) => ({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    });
    const listen = wire.request('subscriptions/listen', {
      notifications: { toolsListChanged: true },
      _meta: envelope({}),
    });
    void listen.catch(() => {});
    const before = await wire.request('tools/list', { _meta: envelope({}) });
    expect((before as { tools: { name: string }[] }).tools.map((t) => t.name)).not.toContain('board_state');
    const after = await wire.request('tools/list', { _meta: envelope(APPS) });
    expect((after as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(APP_TOOLS),
    );
    await expect.poll(() => wire.notifications, { timeout: 10_000 }).toContain('notifications/tools/list_changed');
    // Once offered, it stays: a later request that does not announce it still sees the same server.
    const later = await wire.request('tools/list', { _meta: envelope({}) });
    expect((later as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('board_state');
  }, 30_000);
});

/** The built server over stdio, spoken to line by line (requests whose envelopes differ). */
function rawStdio() {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI], {
    env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
  });
  closers.push({ close: () => child.kill() });
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  const notifications: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as {
      id?: number;
      method?: string;
      result?: unknown;
      error?: { message: string };
    };
    if (message.method !== undefined && message.id === undefined) notifications.push(message.method);
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting || message.method !== undefined) return;
    pending.delete(message.id as number);
    if (message.error) waiting.reject(new Error(message.error.message));
    else waiting.resolve(message.result);
  });
  let next = 1;
  return {
    notifications,
    request(method: string, params: Record<string, unknown>): Promise<unknown> {
      const id = next++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
  };
}
