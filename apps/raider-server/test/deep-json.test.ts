// Issue 36, "nothing a client sends can crash a request": JSON nested 10 000 levels deep (arrays
// and objects), sent to real server processes over HTTP in both eras (with and without a 2025
// session), to the board's JSON routes, and over stdio, is answered with a JSON-RPC error that
// names the depth limit (400 over HTTP, an error line over stdio), the server answers the next
// request as before, and nothing overflows the stack (it answered 500 "Internal error" and logged
// "Maximum call stack size exceeded"). One HTTP server and one stdio server serve every case.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './helpers.js';

const LEVELS = 10_000;
const SHAPES = {
  arrays: `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`,
  objects: `${'{"a":'.repeat(LEVELS)}1${'}'.repeat(LEVELS)}`,
};
const TOKEN = 'deep-json-token';
const LIMIT = 'nests too deep: expected at most 64 levels of arrays and objects';

/** The JSON-RPC error a message `levels` deep is answered with. */
const refusal = (levels: number, id: string | number | null) => ({
  jsonrpc: '2.0',
  error: { code: -32600, message: `Invalid request: the message ${LIMIT}, received ${levels} levels` },
  id,
});

const children: ChildProcess[] = [];
/** What each server wrote to stderr so far (at log level debug: every error the SDK reports too). */
const stderrOf = new Map<ChildProcess, string>();

function start(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [CLI, ...args, '--log-level', 'debug'], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  stderrOf.set(child, '');
  child.stderr?.on('data', (chunk: Buffer) => stderrOf.set(child, `${stderrOf.get(child)}${chunk}`));
  return child;
}

afterAll(() => {
  for (const child of children) child.kill();
});

/** The JSON-RPC message of an answer, as JSON or as the one event of an event stream. */
async function messageOf(answer: Response): Promise<unknown> {
  const text = await answer.text();
  if (!(answer.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse((data as string).slice('data: '.length));
}

describe('deeply nested JSON over HTTP', () => {
  let server: ChildProcess;
  let origin: string;
  let sessionId: string;
  const base = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${TOKEN}`,
  };
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'deep-json', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  /** The headers of a 2026-era request (no session; the method and name in headers too). */
  const modern = (method: string, name?: string) => ({
    ...base,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  });
  const inSession = () => ({ ...base, 'mcp-session-id': sessionId });
  const post = (headers: Record<string, string>, body: string, path = '/mcp') =>
    fetch(`${origin}${path}`, { method: 'POST', headers, body });

  beforeAll(async () => {
    server = start(['--http', '--port', '0', '--board', '--token', TOKEN]);
    origin = await new Promise<string>((resolve, reject) => {
      server.stderr?.on('data', () => {
        const url = /(http:\/\/[^\s/]+)\/mcp/.exec(stderrOf.get(server) ?? '');
        if (url) resolve(url[1] as string);
      });
      server.once('exit', (code) => reject(new Error(`exited ${code}: ${stderrOf.get(server)}`)));
    });
    const initialize = await post(
      base,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'deep-json', version: '1' } },
      }),
    );
    sessionId = initialize.headers.get('mcp-session-id') as string;
    await initialize.text();
    await (await post(inSession(), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).text();
  });

  /** The server still serves: a task_list in the 2025 session and a tools/list in the 2026 era. */
  async function stillServes() {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 90, method: 'tools/call', params: { name: 'task_list' } });
    const listed = await post(inSession(), call);
    expect(listed.status).toBe(200);
    expect(await messageOf(listed)).toMatchObject({ id: 90, result: { content: [{ type: 'text' }] } });
    const tools = JSON.stringify({ jsonrpc: '2.0', id: 91, method: 'tools/list', params: { _meta: envelope } });
    const modernTools = await post(modern('tools/list'), tools);
    expect(modernTools.status).toBe(200);
    expect(await messageOf(modernTools)).toMatchObject({ id: 91, result: { tools: expect.any(Array) } });
    expect(stderrOf.get(server)).not.toMatch(/Maximum call stack|request failed/);
  }

  for (const [shape, deep] of Object.entries(SHAPES)) {
    it(`2025 era without a session: a bare nest and an initialize holding one (${shape})`, async () => {
      const bare = await post(base, deep);
      expect([bare.status, await bare.json()]).toEqual([400, refusal(LEVELS, null)]);
      const capabilities = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"x":${deep}},"clientInfo":{"name":"x","version":"1"}}}`;
      const initialize = await post(base, capabilities);
      expect([initialize.status, await initialize.json()]).toEqual([400, refusal(LEVELS + 3, 'init')]);
      await stillServes();
    });

    it(`2025 era in a session: a tool call, a batch and a bare nest (${shape})`, async () => {
      const call = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_create","arguments":{"subject":"x","description":"y","metadata":{"a":${deep}}}}}`;
      const called = await post(inSession(), call);
      expect([called.status, await called.json()]).toEqual([400, refusal(LEVELS + 4, 7)]);
      const batch = await post(inSession(), `[{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"x":${deep}}}]`);
      expect([batch.status, await batch.json()]).toEqual([400, refusal(LEVELS + 3, null)]);
      const bare = await post(inSession(), deep);
      expect([bare.status, await bare.json()]).toEqual([400, refusal(LEVELS, null)]);
      await stillServes();
      // Nothing of the refused call was stored.
      const call2 = JSON.stringify({ jsonrpc: '2.0', id: 92, method: 'tools/call', params: { name: 'task_list' } });
      expect(await messageOf(await post(inSession(), call2))).toMatchObject({
        result: { content: [{ text: 'No tasks found' }] },
      });
    });

    it(`2026 era: a tool call, a nest in the envelope and a bare nest (${shape})`, async () => {
      const call = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"task_list","arguments":{"x":${deep}},"_meta":${JSON.stringify(envelope)}}}`;
      const called = await post(modern('tools/call', 'task_list'), call);
      expect([called.status, await called.json()]).toEqual([400, refusal(LEVELS + 3, 9)]);
      const meta = JSON.stringify({ ...envelope, deep: 0 }).replace('"deep":0', `"deep":${deep}`);
      const inEnvelope = await post(
        modern('tools/list'),
        `{"jsonrpc":"2.0","id":10,"method":"tools/list","params":{"_meta":${meta}}}`,
      );
      expect([inEnvelope.status, await inEnvelope.json()]).toEqual([400, refusal(LEVELS + 3, 10)]);
      const bare = await post(modern('tools/list'), deep);
      expect([bare.status, await bare.json()]).toEqual([400, refusal(LEVELS, null)]);
      await stillServes();
    });

    it(`the board's JSON routes (${shape})`, async () => {
      const error = `the body ${LIMIT}, received ${LEVELS + 1} levels`;
      for (const [path, body] of [
        ['/board/answer', `{"id":"q","answer":${deep}}`],
        ['/board/message', `{"list":"l","to":"alice","message":"hi","taskId":${deep}}`],
      ] as const) {
        const answer = await post(base, body, path);
        expect([answer.status, await answer.json()]).toEqual([400, { error }]);
      }
      await stillServes();
    });
  }
});

describe('deeply nested JSON over stdio', () => {
  let server: ChildProcess;
  /** The lines the server wrote to stdout, each parsed. */
  const lines: { id?: unknown; [key: string]: unknown }[] = [];
  const send = (line: string) => server.stdin?.write(`${line}\n`);
  /** The answers with id `id`, once `count` of them came. */
  async function answered(id: unknown, count = 1) {
    await expect.poll(() => lines.filter((line) => line.id === id).length, { timeout: 20_000 }).toBe(count);
    return lines.filter((line) => line.id === id);
  }

  beforeAll(() => {
    server = start([]);
    let pending = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk;
      const whole = pending.split('\n');
      pending = whole.pop() as string;
      for (const line of whole) lines.push(JSON.parse(line));
    });
  });

  it('answers each nest with an error line, before and after the opening, and serves on', async () => {
    // Before the opening (the era not chosen yet): the transport answers them itself.
    send(SHAPES.arrays);
    send(SHAPES.objects);
    expect(await answered(null, 2)).toEqual([refusal(LEVELS, null), refusal(LEVELS, null)]);
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'deep-json', version: '1' } },
      }),
    );
    await answered(1);
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    for (const [index, deep] of Object.values(SHAPES).entries()) {
      send(
        `{"jsonrpc":"2.0","id":${10 + index},"method":"tools/call","params":{"name":"task_create","arguments":{"subject":"x","description":"y","metadata":{"a":${deep}}}}}`,
      );
      expect(await answered(10 + index)).toEqual([refusal(LEVELS + 4, 10 + index)]);
      send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"x":${deep}}}`);
      send(deep);
    }
    expect(await answered(null, 6)).toEqual(
      [LEVELS, LEVELS, LEVELS + 2, LEVELS, LEVELS + 2, LEVELS].map((levels) => refusal(levels, null)),
    );
    send(
      JSON.stringify({ jsonrpc: '2.0', id: 20, method: 'tools/call', params: { name: 'task_list', arguments: {} } }),
    );
    // Nothing of the refused calls was stored, and the server still answers.
    expect(await answered(20)).toEqual([
      { jsonrpc: '2.0', id: 20, result: { content: [{ type: 'text', text: 'No tasks found' }] } },
    ]);
    expect(server.exitCode).toBeNull();
    expect(stderrOf.get(server)).not.toMatch(/Maximum call stack/);
  });
});
