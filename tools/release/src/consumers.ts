// What a user of each published package writes first: a small program that imports the package,
// mounts its tools on an MCP server and calls one through a client (in memory), or uses its API
// where it has no tools. Each is plain JavaScript checked by TypeScript (`// @ts-check`): the
// release test type-checks it (moduleResolution node16, then bundler) and runs it with Node, in a
// project that holds nothing but the package and its peers, installed from the registry.

const V1 = '@modelcontextprotocol/sdk';
const V2 = '@modelcontextprotocol/server';

/** A v1 client on an in-memory pair; `server` is an SDK v1 McpServer. */
const v1Client = `
import { Client } from '${V1}/client/index.js';
import { InMemoryTransport } from '${V1}/inMemory.js';
/** @param {import('${V1}/server/mcp.js').McpServer} server @param {Record<string, unknown>} [capabilities] */
async function connect(server, capabilities = {}) {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'release-probe', version: '1.0.0' }, { capabilities });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}
/** The text of a tool result. @param {unknown} result */
const textOf = (result) => /** @type {{ content: { type: string, text: string }[] }} */ (result).content[0]?.text ?? '';
`;

/**
 * A 2025-era JSON-RPC client written by hand over SDK v2's in-memory transport, so that nothing but
 * the server package is needed (as the packages' check-peers scripts do).
 */
const v2Client = `
import { InMemoryTransport as InMemoryTransportV2 } from '${V2}';
/** @param {{ connect(transport: unknown): Promise<void> }} server @param {(message: any) => any} [onRequest] */
async function connectV2(server, onRequest) {
  const [serverSide, clientSide] = InMemoryTransportV2.createLinkedPair();
  /** @type {Map<unknown, (message: any) => void>} */
  const answers = new Map();
  clientSide.onmessage = (/** @type {any} */ message) => {
    if (message.method && onRequest) void clientSide.send({ jsonrpc: '2.0', id: message.id, result: onRequest(message) });
    else answers.get(message.id)?.(message);
  };
  let next = 1;
  /** @param {string} method @param {unknown} params @returns {Promise<any>} */
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      answers.set(id, resolve);
      void clientSide.send({ jsonrpc: '2.0', id, method, params: /** @type {any} */ (params) });
    });
  await server.connect(serverSide);
  await clientSide.start();
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'release-probe', version: '1.0.0' } });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { request, close: () => clientSide.close() };
}
`;

/** The probe of each published package: its source (`probe.mjs`) and the line it prints when all went well. */
export const PROBES: Record<string, { source: string; prints: string[] }> = {
  '@raider/tool-names': {
    source: `// @ts-check
import { claudeInput, raiderName } from '@raider/tool-names';
const name = raiderName('Read');
const input = claudeInput('read_file', { path: 'lib/A.pm' });
if (name !== 'read_file' || JSON.stringify(input) !== '{"file_path":"lib/A.pm"}') throw new Error(\`unexpected: \${name} \${JSON.stringify(input)}\`);
console.log('tool-names: Read is', name);
`,
    prints: ['tool-names: Read is read_file'],
  },
  '@raider/tasks-registry': {
    source: `// @ts-check
import { TaskRegistry, notificationText } from '@raider/tasks-registry';
const tasks = new TaskRegistry();
const id = tasks.nextId('agent');
tasks.notify('main', notificationText({ taskId: id, status: 'completed', summary: 'Agent finished', result: 'done' }), { id });
const [message] = tasks.takeMessages('main');
if (!message || !String(message.content).includes(\`<task-id>\${id}</task-id>\`)) throw new Error(\`unexpected: \${JSON.stringify(message)}\`);
console.log('tasks-registry: took the notification of', id);
`,
    prints: ['tasks-registry: took the notification of agent_1'],
  },
  '@raider/todo-tools': {
    source: `// @ts-check
import { TaskTools } from '@raider/todo-tools';
import { TaskTools as TaskToolsV2 } from '@raider/todo-tools/v2';
import { describeTaskStoreConformance } from '@raider/todo-tools/conformance';
${v1Client}
${v2Client}
const client = await connect(new TaskTools().server);
console.log('todo-tools v1:', textOf(await client.callTool({ name: 'task_create', arguments: { subject: 'Probe', description: '' } })));
await client.close();
const v2 = await connectV2(new TaskToolsV2().server);
const answer = await v2.request('tools/call', { name: 'task_create', arguments: { subject: 'Probe', description: '' } });
console.log('todo-tools v2:', answer.result.content[0].text);
await v2.close();
if (typeof describeTaskStoreConformance !== 'function') throw new Error('no conformance suite');
`,
    prints: [
      'todo-tools v1: Task #1 created successfully: Probe',
      'todo-tools v2: Task #1 created successfully: Probe',
    ],
  },
  '@raider/ask-tools': {
    source: `// @ts-check
import { McpServer } from '${V1}/server/mcp.js';
import { ElicitRequestSchema } from '${V1}/types.js';
import { AskTools, elicitationAnswerer } from '@raider/ask-tools';
import { McpServer as McpServerV2 } from '${V2}';
import { AskTools as AskToolsV2 } from '@raider/ask-tools/v2';
${v1Client}
${v2Client}
const server = new McpServer({ name: 'release-probe', version: '1.0.0' });
new AskTools({ answerer: elicitationAnswerer(server) }).register(server);
const client = await connect(server, { elicitation: { form: {} } });
client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { answer: 'Postgres' } }));
console.log('ask-tools v1:', textOf(await client.callTool({ name: 'ask_user', arguments: { question: 'Which database?' } })));
await client.close();
const serverV2 = new McpServerV2({ name: 'release-probe', version: '1.0.0' });
new AskToolsV2().register(serverV2);
const v2 = await connectV2(serverV2, () => ({ action: 'accept', content: { answer: 'SQLite' } }));
const answer = await v2.request('tools/call', { name: 'ask_user', arguments: { question: 'Which database?' } });
console.log('ask-tools v2:', answer.result.content[0].text);
await v2.close();
`,
    prints: ['ask-tools v1: Postgres', 'ask-tools v2: SQLite'],
  },
  '@raider/file-store': {
    source: `// @ts-check
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openList } from '@raider/file-store';
import { TaskTools } from '@raider/todo-tools';
${v1Client}
const folder = mkdtempSync(join(tmpdir(), 'raider-release-file-store-'));
try {
  const list = openList(folder, 'release');
  const client = await connect(new TaskTools({ store: list.tasks }).server);
  const text = textOf(await client.callTool({ name: 'task_create', arguments: { subject: 'Probe', description: '' } }));
  await client.close();
  list.close();
  if (!existsSync(join(folder, 'release', '1.json'))) throw new Error('no release/1.json in the list folder');
  console.log('file-store:', text, '(release/1.json written)');
} finally {
  rmSync(folder, { recursive: true, force: true });
}
`,
    prints: ['file-store: Task #1 created successfully: Probe (release/1.json written)'],
  },
  '@raider/postgres-store': {
    source: `// @ts-check
import { openPostgresLists } from '@raider/postgres-store';
import { TaskTools } from '@raider/todo-tools';
${v1Client}
const connectionString = process.env.DATABASE_URL;
if (!connectionString) throw new Error('DATABASE_URL is not set');
const lists = openPostgresLists({ connectionString });
try {
  const team = lists.list(process.env.LIST_ID ?? 'release');
  const client = await connect(new TaskTools({ store: team.tasks }).server);
  console.log('postgres-store:', textOf(await client.callTool({ name: 'task_create', arguments: { subject: 'Probe', description: '' } })));
  await client.close();
} finally {
  await lists.close();
}
`,
    prints: ['postgres-store: Task #1 created successfully: Probe'],
  },
  '@raider/server': {
    source: `// @ts-check
import { readOptions, startHttp } from '@raider/server';
const server = await startHttp(readOptions(['--http', '--port', '0'], {}));
try {
  /** @param {unknown} body @param {Record<string, string>} [headers] */
  const post = async (body, headers = {}) => {
    const answer = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    const text = await answer.text();
    const json = text.startsWith('{') ? text : (text.split('\\n').filter((line) => line.startsWith('data: ')).pop() ?? '').slice(6);
    return { session: answer.headers.get('mcp-session-id') ?? '', message: json ? JSON.parse(json) : undefined };
  };
  const { session } = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'release-probe', version: '1.0.0' } } });
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  const { message } = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'task_create', arguments: { subject: 'Probe', description: '' } } }, headers);
  console.log('server (embedded):', message.result.content[0].text);
} finally {
  await server.close();
}
`,
    prints: ['server (embedded): Task #1 created successfully: Probe'],
  },
};

/**
 * The tsconfig of a consumer: strict, the probe checked against the published types. skipLibCheck
 * as `tsc --init` sets it: checking every declaration file (both SDKs' and zod's with ours) takes
 * 30-50 s a package on a busy 2-core machine; what a published declaration file imports is
 * checked apart, in the tarball (`undeclaredImports`).
 */
export function consumerTsconfig(resolution: 'node16' | 'bundler', typeRoots: string): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        // DOM for the fetch types SDK v1's declarations name (HeadersInit).
        lib: ['ES2023', 'DOM'],
        module: resolution === 'node16' ? 'node16' : 'esnext',
        moduleResolution: resolution,
        strict: true,
        allowJs: true,
        checkJs: true,
        noEmit: true,
        skipLibCheck: true,
        typeRoots: [typeRoots],
        types: ['node'],
      },
      files: ['probe.mjs'],
    },
    null,
    2,
  )}\n`;
}
