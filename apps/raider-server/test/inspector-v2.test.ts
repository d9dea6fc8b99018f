// A real 2026-era client nobody here wrote: the MCP Inspector v2's CLI (`mcp-inspector --cli`, one
// method per run, `--format json`), against the built server over stdio and against Streamable
// HTTP. v2 needs Node >= 22.19, so it and such a Node come from the registry into
// node_modules/.cache/ once (inspector-v2-setup.ts); the server runs on the Node under test.
//
// `--protocol-era auto` probes `server/discover` and falls back to the 2025 handshake when a
// server does not answer it; `modern` pins 2026-07-28 and fails without it; `legacy` is the 2025
// initialize handshake. Its `initialize` method reports what was negotiated.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServer, readOptions, startHttp } from '../src/index.js';
import { CLI } from './helpers.js';
import { FETCH_BUDGET_MS, INSPECTOR_VERSION, type InspectorV2, inspectorV2, pathWith } from './inspector-v2-setup.js';

const ARTIFACTS = fileURLToPath(new URL('../test-results/', import.meta.url));
const MODERN = '2026-07-28';
const TOOLS = ['task_create', 'task_update', 'task_list', 'task_get', 'ask_user'];
/** One Inspector run (connect, one method, disconnect) takes 1-6 s on a busy machine. */
const RUN_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 3 * RUN_TIMEOUT_MS;

let inspector: InspectorV2;
/** A throwaway HOME, so the Inspector reads and writes no ~/.mcp-inspector of the person running the tests. */
let home: string;

/** What the runs saw, written out after the file. */
const report: Record<string, unknown> = {};

beforeAll(
  async () => {
    inspector = await inspectorV2();
    home = mkdtempSync(join(tmpdir(), 'raider-inspector-v2-home-'));
    report.inspector = inspector;
  },
  FETCH_BUDGET_MS + 2 * 60_000,
);

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, 'inspector-v2.json'), `${JSON.stringify(report, null, 2)}\n`);
});

type Era = 'auto' | 'modern' | 'legacy';

/**
 * Runs the Inspector's CLI once against `target` (its server arguments) and returns its `result`.
 * @throws Error with the Inspector's error envelope when it exits non-zero or prints no result.
 */
function inspect(target: string[], era: Era, method: string[]): Promise<Record<string, unknown>> {
  const args = [
    inspector.launcher,
    '--cli',
    '--format',
    'json',
    '--quiet',
    '--protocol-era',
    era,
    ...target,
    ...method,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      inspector.node,
      args,
      // Only PATH and the throwaway HOME: the stdio server it starts gets the SDK's default environment.
      { env: pathWith(inspector.node, { PATH: process.env.PATH ?? '', HOME: home }), timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const said = `mcp-inspector ${args.slice(1).join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`;
        if (error) return reject(new Error(`${error.message}\n${said}`));
        try {
          const parsed = JSON.parse(stdout) as { result?: Record<string, unknown> };
          if (parsed.result === undefined) return reject(new Error(`no result\n${said}`));
          resolve(parsed.result);
        } catch {
          reject(new Error(`not one JSON object on stdout\n${said}`));
        }
      },
    );
  });
}

const callCreate = ['--method', 'tools/call', '--tool-name', 'task_create', '--tool-arg', 'subject=Hello'];

const stdio = [process.execPath, CLI];

describe(`the MCP Inspector v2 CLI (${INSPECTOR_VERSION}) over stdio, the built server`, () => {
  it(
    `negotiates ${MODERN} when it may choose (auto), and 2025-11-25 when it is told to (legacy)`,
    async () => {
      const [auto, legacy] = await Promise.all([
        inspect(stdio, 'auto', ['--method', 'initialize']),
        inspect(stdio, 'legacy', ['--method', 'initialize']),
      ]);
      report.stdioInitialize = { auto, legacy };
      expect(auto.protocolVersion).toBe(MODERN);
      expect(auto.serverInfo).toMatchObject({ name: 'raider-server' });
      expect(auto.capabilities).toMatchObject({ tools: { listChanged: true } });
      expect(legacy.protocolVersion).toBe('2025-11-25');
      expect(legacy.serverInfo).toEqual(auto.serverInfo);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `lists the tools on ${MODERN} (pinned)`,
    async () => {
      const listed = await inspect(stdio, 'modern', ['--method', 'tools/list']);
      expect((listed.tools as { name: string }[]).map((t) => t.name)).toEqual(TOOLS);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `calls task_create on ${MODERN} (pinned)`,
    async () => {
      const result = await inspect(stdio, 'modern', [...callCreate, '--tool-arg', 'description=from the inspector v2']);
      report.stdioCall = result;
      // What the model reads: the text alone (structured output is off by default).
      expect(result.content).toEqual([{ type: 'text', text: 'Task #1 created successfully: Hello' }]);
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toBeUndefined();
    },
    TEST_TIMEOUT_MS,
  );
});

describe(`the MCP Inspector v2 CLI (${INSPECTOR_VERSION}) over Streamable HTTP`, () => {
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function http(): Promise<string[]> {
    server = await startHttp(readOptions(['--http', '--port', '0'], {}));
    return ['--transport', 'http', '--server-url', server.url];
  }

  it(
    `negotiates ${MODERN} (auto) and lists the tools (pinned)`,
    async () => {
      const target = await http();
      const negotiated = await inspect(target, 'auto', ['--method', 'initialize']);
      report.httpInitialize = negotiated;
      expect(negotiated.protocolVersion).toBe(MODERN);
      expect(negotiated.serverInfo).toMatchObject({ name: 'raider-server' });
      const listed = await inspect(target, 'modern', ['--method', 'tools/list']);
      expect((listed.tools as { name: string }[]).map((t) => t.name)).toEqual(TOOLS);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `calls task_create on ${MODERN}, and a later connection sees the task (no sessions in that era)`,
    async () => {
      const target = await http();
      const created = await inspect(target, 'modern', [...callCreate, '--tool-arg', 'description=over HTTP']);
      report.httpCall = created;
      expect(created.content).toEqual([{ type: 'text', text: 'Task #1 created successfully: Hello' }]);
      expect(created.isError).toBeUndefined();
      // A 2026-era request names its list (the default one here) instead of a session's.
      const listed = await inspect(target, 'modern', ['--method', 'tools/call', '--tool-name', 'task_list']);
      expect(listed.content).toEqual([{ type: 'text', text: '#1 [pending] Hello' }]);
    },
    TEST_TIMEOUT_MS,
  );
});
