// Both MCP SDKs are optional peers of @raider/todo-tools: installing the packed package beside
// either one alone (or both, or neither) must give no peer warning, and the entry of each SDK must
// work with only that SDK installed. Run after `pnpm build`, from packages/todo-tools:
//
//   node scripts/check-peers.mjs
//
// It checks the built files first (the `.` entry names no v2 type or module, `./v2` no v1 one,
// the shared chunks neither), packs the package as it is published, and installs it with npm into
// an empty project per case (`--prefer-offline`: from the npm cache when it has the versions).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const here = process.cwd();
const dist = join(here, 'dist');
const manifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
if (!existsSync(join(dist, 'v2.js'))) throw new Error('no dist/v2.js: run pnpm build first');

const V1 = '@modelcontextprotocol/sdk';
const V2 = '@modelcontextprotocol/server';

/** The built files an entry loads or names: the file and, transitively, the chunks it imports. */
function closure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, chunk] of readFileSync(join(dist, file), 'utf8').matchAll(/from\s+["']\.\/([^"']+)["']/g)) {
    // A declaration file names its chunks by their .js; their types are in the .d.ts beside.
    closure(file.endsWith('.d.ts') ? chunk.replace(/\.js$/, '.d.ts') : chunk, seen);
  }
  return seen;
}

const problems = [];
for (const [entry, other] of [
  ['index', V2],
  ['v2', V1],
  ['conformance', V1],
  ['conformance', V2],
  ['internal', V1],
  ['internal', V2],
]) {
  for (const extension of ['.js', '.d.ts']) {
    for (const file of closure(`${entry}${extension}`)) {
      const text = readFileSync(join(dist, file), 'utf8');
      if (text.includes(`'${other}`) || text.includes(`"${other}`))
        problems.push(`${file} (of ${entry}${extension}) names ${other}`);
    }
  }
}
if (problems.length) throw new Error(`the entries are not apart:\n${problems.join('\n')}`);
console.log('built files: . names no v2 module or type, ./v2 no v1 one, ./conformance neither');

/** A probe for SDK v1: the `.` entry's task server, called through a v1 Client. */
const probeV1 = `
import { Client } from '${V1}/client/index.js';
import { InMemoryTransport } from '${V1}/inMemory.js';
import { TaskTools } from '${manifest.name}';
const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
const client = new Client({ name: 'probe', version: '1.0.0' });
const todos = new TaskTools();
await Promise.all([todos.server.connect(serverSide), client.connect(clientSide)]);
const result = await client.callTool({ name: 'task_create', arguments: { subject: 'Probe', description: '' } });
await client.close();
console.log('v1:', result.content[0].text);
`;

/**
 * A probe for SDK v2: the `./v2` entry's task server, called by a client written here over the
 * server package's in-memory transport (JSON-RPC by hand), so nothing but the server is installed.
 */
const probeV2 = `
import { InMemoryTransport } from '${V2}';
import { TaskTools } from '${manifest.name}/v2';
const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
const answers = new Map();
clientSide.onmessage = (message) => answers.get(message.id)?.(message);
const request = (id, method, params) =>
  new Promise((resolve) => { answers.set(id, resolve); void clientSide.send({ jsonrpc: '2.0', id, method, params }); });
await new TaskTools().server.connect(serverSide);
await clientSide.start();
await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1.0.0' } });
await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
const answer = await request(2, 'tools/call', { name: 'task_create', arguments: { subject: 'Probe', description: '' } });
await clientSide.close();
console.log('v2:', answer.result.content[0].text);
`;

/** What importing `specifier` does in `project`: 'loads', or the missing module's name. */
function importOutcome(project, specifier) {
  const run = spawnSync('node', ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`], {
    cwd: project,
    encoding: 'utf8',
  });
  if (run.status === 0) return 'loads';
  return /Cannot find (?:package|module) '([^']+)'/.exec(run.stderr)?.[1] ?? run.stderr.trim().split('\n')[0];
}

const cases = [
  { name: 'v1 + zod', peers: [`${V1}@^1.32.0`, 'zod@^4'], probes: [probeV1], missing: { [`${manifest.name}/v2`]: V2 } },
  { name: 'v2 + zod', peers: [`${V2}@^2.4.0`, 'zod@^4'], probes: [probeV2], missing: { [manifest.name]: V1 } },
  {
    name: 'v1 + v2 + zod',
    peers: [`${V1}@^1.32.0`, `${V2}@^2.4.0`, 'zod@^4'],
    probes: [probeV1, probeV2],
    missing: {},
  },
  { name: 'the package alone', peers: [], probes: [], missing: { [manifest.name]: V1, [`${manifest.name}/v2`]: V2 } },
];

const work = mkdtempSync(join(tmpdir(), 'todo-tools-peers-'));
let failed = 0;
try {
  execFileSync('pnpm', ['pack', '--pack-destination', work], { cwd: here, stdio: 'ignore' });
  const tarball = join(
    work,
    readdirSync(work).find((file) => file.endsWith('.tgz')),
  );
  for (const { name, peers, probes, missing } of cases) {
    const project = mkdtempSync(join(work, 'project-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'probe', private: true, type: 'module' }));
    const started = Date.now();
    const install = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn', tarball, ...peers],
      { cwd: project, encoding: 'utf8' },
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const warnings = `${install.stdout}\n${install.stderr}`.split('\n').filter((line) => /\bwarn\b/i.test(line));
    const installed = JSON.parse(
      execFileSync('npm', ['ls', '--json', '--depth=0'], { cwd: project, encoding: 'utf8' }),
    ).dependencies;
    const versions = Object.entries(installed ?? {})
      .map(([dependency, { version }]) => `${dependency}@${version}`)
      .join(', ');
    console.log(`\n== ${name}: npm install in ${seconds} s; installed ${versions}`);
    if (install.status !== 0) {
      console.log(install.stderr);
      failed += 1;
      continue;
    }
    if (warnings.length) {
      console.log(`warnings:\n${warnings.join('\n')}`);
      failed += 1;
    } else console.log('no warning');
    // zod is the one required peer: npm installs it when the project did not ask for it.
    if (!existsSync(join(project, 'node_modules', 'zod', 'package.json'))) {
      console.log('zod, a required peer, was not installed');
      failed += 1;
    }
    for (const probe of probes) {
      writeFileSync(join(project, 'probe.mjs'), probe);
      const run = spawnSync('node', ['probe.mjs'], { cwd: project, encoding: 'utf8' });
      process.stdout.write(run.stdout);
      if (run.status !== 0 || !run.stdout.includes('Task #1 created successfully: Probe')) {
        console.log(run.stderr);
        failed += 1;
      }
    }
    for (const [specifier, module] of Object.entries(missing)) {
      const outcome = importOutcome(project, specifier);
      console.log(
        `import('${specifier}') without ${module}: ${outcome === module ? `needs ${module}, as documented` : outcome}`,
      );
      if (outcome !== module) failed += 1;
    }
    const conformance = importOutcome(project, `${manifest.name}/conformance`);
    console.log(`import('${manifest.name}/conformance'): ${conformance}`);
    if (conformance !== 'loads') failed += 1;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed) {
  console.error(`\n${failed} check(s) failed`);
  process.exit(1);
}
console.log('\nno peer warning in any case; each entry works with its SDK alone');
