/**
 * The demo: every scenario against the real server in each of its name modes and in both protocol
 * eras (the 2025 era with the SDK v1 client, 2026-07-28 with the SDK v2 client), over stdio and
 * then over Streamable HTTP; the registry of background work driven in process; a Claude Code
 * transcript replayed; a durable list, a team on one list and two agents that talk, in either era. Prints a readable
 * transcript and a summary with counts.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentsDemo } from './agents-demo.js';
import { importClaudeFile } from './claude-import.js';
import { durableDemo } from './durable-demo.js';
import { clip, type Printer } from './output.js';
import { registryDemo } from './registry-demo.js';
import { runScenario, type ScenarioRun, serverArgs } from './runner.js';
import { loadScenario, type Scenario } from './scenario.js';
import { ERAS, type Reach, spawnHttpServer } from './server-process.js';
import { teamDemo } from './team-demo.js';

/** Where the playground's data lives. */
export const HOME = fileURLToPath(new URL('..', import.meta.url));
/** The scenario files the demo runs. */
export const SCENARIOS_DIR = join(HOME, 'scenarios');
/** The Claude Code transcript the demo replays. */
export const CLAUDE_FIXTURE = join(HOME, 'fixtures', 'claude-session.jsonl');

/** A failed step, for the report. */
export interface Failure {
  scenario: string;
  mode: string;
  transport: string;
  /** The protocol revision of the run, when it spoke MCP. */
  era?: string;
  step: number;
  tool: string;
  expected: string;
  received: string;
}

/** The demo's counts. */
export interface DemoResult {
  passed: number;
  failed: number;
  failures: Failure[];
}

/** Every scenario file of a folder, loaded (a malformed one throws ScenarioError). */
export function loadScenarios(dir = SCENARIOS_DIR): Scenario[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadScenario(join(dir, f)));
}

/** Prints one run and adds it to the counts. */
export function report(run: ScenarioRun, out: Printer, result: DemoResult): void {
  out.line(out.bold(`▶ ${run.scenario} · ${run.mode} names · ${run.transport}${run.era ? ` · ${run.era}` : ''}`));
  for (const step of run.steps) {
    const call = `${step.index} ${step.tool} ${clip(JSON.stringify(step.args), 60)}`;
    if (step.ok) {
      result.passed += 1;
      out.line(`  ${out.green('✓')} ${call} ${out.dim(`→ ${clip(step.received, 90)}`)}`);
    } else {
      result.failed += 1;
      result.failures.push({
        scenario: run.scenario,
        mode: run.mode,
        transport: run.transport,
        era: run.era,
        step: step.index,
        tool: step.tool,
        expected: step.expected,
        received: step.received,
      });
      out.line(`  ${out.red('✗')} ${call}`);
      out.line(`      expected ${step.expected}`);
      out.line(`      received ${step.received}`);
    }
  }
}

/** Step 2: the registry of background work driven in process, checked as one step. */
async function registrySection(out: Printer, result: DemoResult): Promise<void> {
  out.line();
  out.line(out.bold('2. Background work: a TaskRegistry driven as an agent harness does'));
  const registry = await registryDemo((text) => out.line(text.replace(/^/gm, '  ')));
  const expected = { agent_1: 'completed', agent_2: 'completed', agent_3: 'failed' };
  const registryOk =
    JSON.stringify(registry.statuses) === JSON.stringify(expected) &&
    registry.messages.length >= 1 &&
    // Claude Code 2.1.332 wraps every notification; the one beside a typed message says so.
    registry.messages.every((message) => message.includes('<system-reminder>')) &&
    (registry.messages[0] ?? '').includes('delivered in the same turn as a genuine message from the user') &&
    registry.messages.join('\n').split('<task-notification>').length - 1 === 3;
  const registryRun: ScenarioRun = {
    scenario: 'background agents notify main',
    mode: 'raider',
    transport: 'in process',
    steps: [
      {
        index: 1,
        tool: 'TaskRegistry',
        args: {},
        ok: registryOk,
        expected: `statuses ${JSON.stringify(expected)}, 3 notifications, each in a reminder, the first beside a typed message`,
        received: `statuses ${JSON.stringify(registry.statuses)}, ${registry.messages.length} messages`,
      },
    ],
  };
  report(registryRun, out, result);
}

/** Every scenario in each of its modes and each era over stdio, a fresh server per run. */
async function stdioRuns(scenarios: Scenario[], out: Printer, result: DemoResult): Promise<void> {
  for (const scenario of scenarios) {
    for (const mode of scenario.modes) {
      for (const era of ERAS) {
        const target = { kind: 'stdio', args: serverArgs(scenario, mode) } as const;
        report(await runScenario(scenario, mode, target, era), out, result);
      }
    }
  }
}

/**
 * Step 4: every scenario again over Streamable HTTP in both eras, one server per set of server
 * flags: a 2025-era run's session has its own list, a 2026-era run names a fresh one.
 */
async function httpSection(scenarios: Scenario[], out: Printer, result: DemoResult): Promise<void> {
  out.line();
  out.line(out.bold('4. The same scenarios over Streamable HTTP in both eras (raider-server --http on a free port)'));
  const groups = new Map<string, { args: string[]; runs: [Scenario, 'raider' | 'claude'][] }>();
  for (const scenario of scenarios) {
    for (const mode of scenario.modes) {
      const args = serverArgs(scenario, mode);
      const key = args.join(' ');
      const group = groups.get(key) ?? { args, runs: [] };
      group.runs.push([scenario, mode]);
      groups.set(key, group);
    }
  }
  for (const group of groups.values()) {
    const server = await spawnHttpServer(group.args);
    try {
      for (const [scenario, mode] of group.runs) {
        for (const era of ERAS) {
          report(await runScenario(scenario, mode, { kind: 'http', url: server.url }, era), out, result);
        }
      }
    } finally {
      await server.stop();
    }
  }
}

/** How the durable, team and agents demos reach their servers: the 2025 era over stdio, 2026-07-28 over HTTP. */
const REACHES: Reach[] = [
  { era: 'legacy', transport: 'stdio' },
  { era: 'modern', transport: 'http' },
];

/** Runs the whole demo; resolves with the counts (the CLI exits non-zero when any failed). */
export async function runDemo(
  out: Printer,
  options: { scenariosDir?: string; fixture?: string } = {},
): Promise<DemoResult> {
  const result: DemoResult = { passed: 0, failed: 0, failures: [] };
  const scenarios = loadScenarios(options.scenariosDir);
  const imported = importClaudeFile(options.fixture ?? CLAUDE_FIXTURE);

  out.line(out.bold('raider playground: every package through the real server'));
  out.line();
  out.line(
    out.bold(
      '1. Scenarios over stdio in both eras, 2025-11-25 and 2026-07-28 (a fresh raider-server subprocess per run)',
    ),
  );
  await stdioRuns(scenarios, out, result);

  await registrySection(out, result);

  out.line();
  out.line(out.bold('3. A Claude Code transcript replayed in both eras (fixtures/claude-session.jsonl)'));
  await stdioRuns([imported], out, result);

  await httpSection([...scenarios, imported], out, result);

  out.line();
  out.line(
    out.bold('5. A durable list (--data-dir, --list) survives a server restart: 2025 era over stdio, 2026 over HTTP'),
  );
  for (const reach of REACHES) report(await durableDemo(reach), out, result);

  out.line();
  out.line(
    out.bold(
      '6. A team on one list: two servers share it through PostgreSQL (embedded) and claim its tasks: 2025 era over stdio, 2026 over HTTP',
    ),
  );
  for (const run of await teamDemo(REACHES)) report(run, out, result);

  out.line();
  out.line(
    out.bold(
      '7. Agents that talk: alice (server A) completes a blocker, bob (server B) is woken and claims the unblocked task: 2025 era over stdio, 2026 over HTTP',
    ),
  );
  for (const reach of REACHES) report(await agentsDemo(reach), out, result);

  out.line();
  if (result.failures.length) {
    out.line(out.red(out.bold('Failures:')));
    for (const f of result.failures) {
      out.line(
        `  ${f.scenario} [${f.mode} names, ${f.transport}${f.era ? `, ${f.era}` : ''}] step ${f.step} (${f.tool}): expected ${f.expected}, received ${f.received}`,
      );
    }
  }
  const summary = `${result.passed} passed, ${result.failed} failed`;
  out.line(result.failed ? out.red(summary) : out.green(summary));
  return result;
}
