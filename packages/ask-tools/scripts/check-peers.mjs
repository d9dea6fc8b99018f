// What a user gets from `npm install @raider/ask-tools` with either SDK, or both. Both SDKs are
// optional peers (one entry per SDK major), so each must be tried alone, beside the repository's
// scripts/check-pack.mjs (one install with every peer, one import of `.`): this script packs the
// package and installs the tarball into four empty projects, each with zod and
//   - v1: @modelcontextprotocol/sdk alone,
//   - v2: @modelcontextprotocol/server alone,
//   - both,
//   - neither (zod alone);
// checks that npm (npm ls) and pnpm (auto-install-peers off, pnpm peers check) find no peer
// missing or invalid and warn of none, and pull in no SDK that was not asked for; that the entry
// of each installed SDK mounts the tools and answers a call (v1: through a v1 Client; v2: in the
// 2025 era over the SDK's InMemoryTransport, the shim sending a real elicitation/create, and in
// the 2026 era through createMcpHandler, input_required and a retry); and that the entry of a
// missing SDK fails naming it. Before that it checks the built files: `.` (its .js and .d.ts
// and the chunks they import) reaches no v2 module or type, `./v2` no v1 one. Run after `pnpm
// build`, from packages/ask-tools (`check:package` does); prints what each step took.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const here = process.cwd();
const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const range = (name) => manifest.devDependencies[name] ?? manifest.peerDependencies[name];
const V1 = `@modelcontextprotocol/sdk@${manifest.peerDependencies['@modelcontextprotocol/sdk']}`;
const V2 = `@modelcontextprotocol/server@${manifest.peerDependencies['@modelcontextprotocol/server']}`;
const ZOD = `zod@${range('zod')}`;
const started = Date.now();
const figures = [];
const step = (what, fn) => {
  const at = Date.now();
  const out = fn();
  figures.push(`${what}: ${((Date.now() - at) / 1000).toFixed(1)} s`);
  return out;
};
const fail = (message) => {
  console.error(`check-peers: ${message}`);
  process.exit(1);
};

/** The bare specifiers a built file (.js or .d.ts) reaches through the chunks it imports. */
function builtImports(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*["']([^"']+)["']/g)].flatMap(([, specifier]) => {
    if (!specifier.startsWith('.')) return [specifier];
    // A declaration file names its chunks by their .js; their types are in the .d.ts beside.
    const chunk = file.endsWith('.d.ts') ? specifier.replace(/\.js$/, '.d.ts') : specifier;
    return builtImports(join(dirname(file), chunk), seen);
  });
}
const V2_MODULE = /^@modelcontextprotocol\/(server|client|core)/;
for (const file of ['index.js', 'index.d.ts']) {
  const reached = builtImports(join(here, 'dist', file));
  if (reached.some((s) => V2_MODULE.test(s))) fail(`dist/${file} reaches v2: ${reached.join(', ')}`);
}
for (const file of ['v2.js', 'v2.d.ts']) {
  const reached = builtImports(join(here, 'dist', file));
  if (reached.some((s) => s.startsWith('@modelcontextprotocol/sdk')))
    fail(`dist/${file} reaches v1: ${reached.join(', ')}`);
}

// The probes, run inside each project. `.` through a v1 Client.
const probeV1 = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AskTools, elicitationAnswerer } from '@raider/ask-tools';
const server = new McpServer({ name: 'probe', version: '1' });
new AskTools({ answerer: elicitationAnswerer(server) }).register(server);
const client = new Client({ name: 'probe', version: '1' }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { answer: 'Postgres' } }));
const [a, b] = InMemoryTransport.createLinkedPair();
await Promise.all([server.connect(a), client.connect(b)]);
const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Which database?' } });
if (result.content[0].text !== 'Postgres') throw new Error('v1: ' + JSON.stringify(result));
await client.close();
console.log('. answered over v1');
`;
// `./v2` with no client package: raw JSON-RPC, as a client would send it, in both eras.
const probeV2 = `
import { createMcpHandler, InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { AskTools } from '@raider/ask-tools/v2';
const ask = new AskTools();
const mount = () => { const server = new McpServer({ name: 'probe', version: '1' }); ask.register(server); return server; };

// 2025-11-25 over InMemoryTransport: the shim sends a real elicitation/create.
const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
const pending = new Map();
const methods = [];
clientSide.onmessage = (message) => {
  if (message.method === 'elicitation/create') {
    methods.push(message.method);
    clientSide.send({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { answer: 'SQLite' } } });
  } else if (message.id !== undefined && pending.has(message.id)) pending.get(message.id)(message);
};
const request = (id, method, params) => new Promise((resolve) => { pending.set(id, resolve); clientSide.send({ jsonrpc: '2.0', id, method, params }); });
await mount().connect(serverSide);
await clientSide.start();
await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'probe', version: '1' } });
await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
const legacy = await request(2, 'tools/call', { name: 'ask_user', arguments: { question: 'Which database?' } });
if (legacy.result?.content?.[0]?.text !== 'SQLite' || methods.join() !== 'elicitation/create') throw new Error('v2 2025: ' + JSON.stringify(legacy));

// 2026-07-28 through createMcpHandler: input_required, then the retry with the answer.
const handler = createMcpHandler(mount);
const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
const post = async (id, params) => {
  const response = await handler.fetch(new Request('http://probe.local/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ask_user' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: envelope } }),
  }));
  const text = await response.text();
  return JSON.parse(text.startsWith('{') ? text : text.split('\\n').filter((l) => l.startsWith('data: ')).pop().slice(6));
};
const args = { name: 'ask_user', arguments: { question: 'Which database?' } };
const asked = await post(1, args);
const [key] = Object.keys(asked.result?.inputRequests ?? {});
if (asked.result?.resultType !== 'input_required' || !key) throw new Error('v2 2026: ' + JSON.stringify(asked));
const answered = await post(2, { ...args, inputResponses: { [key]: { action: 'accept', content: { answer: 'DuckDB' } } } });
if (answered.result?.content?.[0]?.text !== 'DuckDB') throw new Error('v2 2026 retry: ' + JSON.stringify(answered));
await handler.close();
console.log('./v2 answered in the 2025 era (shim) and the 2026 era (input_required)');
`;
// The entry of an SDK that is not installed fails, naming the SDK.
const probeMissing = (entry, sdk) => `
try { await import(${JSON.stringify(entry)}); console.error('${entry} loaded without ${sdk}'); process.exit(1); }
catch (error) { if (error.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('${sdk}')) throw error; }
console.log('${entry} without ${sdk}: ERR_MODULE_NOT_FOUND naming it');
`;

const scenarios = [
  {
    name: 'v1 + zod',
    peers: [V1],
    probes: [probeV1, probeMissing('@raider/ask-tools/v2', '@modelcontextprotocol/server')],
  },
  { name: 'v2 + zod', peers: [V2], probes: [probeV2, probeMissing('@raider/ask-tools', '@modelcontextprotocol/sdk')] },
  { name: 'both + zod', peers: [V1, V2], probes: [probeV1, probeV2] },
  {
    name: 'zod alone',
    peers: [],
    probes: [
      probeMissing('@raider/ask-tools', '@modelcontextprotocol/sdk'),
      probeMissing('@raider/ask-tools/v2', '@modelcontextprotocol/server'),
    ],
  },
];
const SDKS = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server'];

const root = mkdtempSync(join(tmpdir(), 'raider-ask-pack-'));
try {
  const tarball = step('pack', () => {
    execFileSync('pnpm', ['pack', '--pack-destination', root], { cwd: here, stdio: 'ignore' });
    const made = readdirSync(root).find((file) => file.endsWith('.tgz'));
    if (!made) fail('pnpm pack wrote no tarball');
    return join(root, made);
  });
  for (const scenario of scenarios) {
    for (const client of ['npm', 'pnpm']) {
      const project = join(root, `${scenario.name.replaceAll(/\W+/g, '-')}-${client}`);
      execFileSync('mkdir', ['-p', project]);
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'empty-project', private: true, type: 'module' }),
      );
      // pnpm would install missing peers itself and say nothing: it must report them instead.
      if (client === 'pnpm') writeFileSync(join(project, 'pnpm-workspace.yaml'), 'autoInstallPeers: false\n');
      const run = (args) => spawnSync(client, args, { cwd: project, encoding: 'utf8' });
      const install = step(`${scenario.name}: ${client} install`, () =>
        run([
          client === 'npm' ? 'install' : 'add',
          ...(client === 'npm' ? ['--no-audit', '--no-fund'] : []),
          tarball,
          ...scenario.peers,
          ZOD,
        ]),
      );
      // npm ls fails on a missing or invalid peer; pnpm peers check lists every unmet one.
      const check = run(client === 'npm' ? ['ls', '--all'] : ['peers', 'check']);
      const output = `${install.stdout}\n${install.stderr}\n${check.stdout}\n${check.stderr}`;
      if (install.status !== 0 || check.status !== 0) fail(`${scenario.name}: ${client} failed:\n${output}`);
      const warnings = output
        .split('\n')
        .filter((line) => /peer/i.test(line) && !/^No peer dependency issues found/.test(line));
      if (warnings.length) fail(`${scenario.name}: ${client} warned of peers:\n${warnings.join('\n')}`);
      if (client === 'pnpm' && !check.stdout.includes('No peer dependency issues found'))
        fail(`${scenario.name}: pnpm peers check said:\n${check.stdout}`);
      for (const sdk of SDKS) {
        const asked = scenario.peers.some((peer) => peer.startsWith(`${sdk}@`));
        const pulled =
          existsSync(join(project, 'node_modules', sdk)) ||
          existsSync(join(project, 'node_modules', '.pnpm', 'node_modules', sdk));
        if (!asked && pulled) fail(`${scenario.name}: ${client} installed ${sdk}, which nobody asked for`);
      }
      // The probes run once per scenario, in the npm project (the pnpm one only checks the install).
      if (client !== 'npm') continue;
      scenario.probes.forEach((probe, index) => {
        writeFileSync(join(project, `probe-${index}.mjs`), probe);
        step(`${scenario.name}: probe ${index + 1}`, () =>
          execFileSync('node', [`probe-${index}.mjs`], { cwd: project, stdio: 'inherit' }),
        );
      });
    }
  }
  console.log(
    `packed ${manifest.name} and used it from empty projects with v1, v2, both and neither (no peer warning):`,
  );
  for (const figure of figures) console.log(`  ${figure}`);
  console.log(`  total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
