/**
 * Runs a scenario against a server: each step's tool (under Claude Code's names when the mode
 * says so, arguments translated with @raider/tool-names), the person's answers played by the
 * client's elicitation handler, and the result compared with what the step expects.
 */
import { claudeInput, claudeName } from '@raider/tool-names';
import type { Answer, Scenario, Step } from './scenario.js';
import { connect, ERA_VERSION, type Era, type Target } from './server-process.js';

/** One step's outcome. */
export interface StepResult {
  index: number;
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  /** What the step expected, for a reader. */
  expected: string;
  /** What came back, for a reader. */
  received: string;
}

/** One run of a scenario in one mode over one transport in one protocol era. */
export interface ScenarioRun {
  scenario: string;
  mode: 'raider' | 'claude';
  transport: string;
  /** The protocol revision the run's client spoke (2025-11-25, 2026-07-28); none in process. */
  era?: string;
  steps: StepResult[];
}

let lists = 0;

/**
 * Over HTTP a 2025-era session has a list of its own; a 2026-era request has no session and is on
 * the list it names (else the server's default one): each such run names a fresh list.
 */
function ownList(target: Target, scenario: Scenario, mode: string, era: Era): Target {
  if (target.kind !== 'http' || era !== 'modern' || target.list) return target;
  lists += 1;
  return { ...target, list: `playground-${scenario.name}-${mode}-${process.pid}-${lists}` };
}

/** The server flags a scenario needs in a mode. */
export function serverArgs(scenario: Scenario, mode: 'raider' | 'claude'): string[] {
  return ['--family', scenario.family, '--names', mode];
}

function describeExpect(step: Step): string {
  const parts: string[] = [];
  if (step.expect.text !== undefined) parts.push(JSON.stringify(step.expect.text));
  if (step.expect.match !== undefined) parts.push(`/${step.expect.match}/`);
  if (step.expect.isError !== undefined) parts.push(step.expect.isError ? 'an error result' : 'not an error');
  if (step.expect.rpcError !== undefined) parts.push(`a JSON-RPC error ${step.expect.rpcError}`);
  return parts.join(' and ');
}

/** A JSON-RPC error's code and message (the v1 client's "MCP error CODE: " prefix left off), else undefined. */
function rpcErrorOf(error: unknown): { code: number; message: string } | undefined {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'number') return undefined;
  return { code: error.code, message: error.message.replace(/^MCP error -?\d+: /, '') };
}

/**
 * Runs `scenario` in `mode` against `target` (a fresh server per run over stdio, a fresh list
 * over HTTP) with a client of `era` (default the 2025 era).
 */
export async function runScenario(
  scenario: Scenario,
  mode: 'raider' | 'claude',
  target: Target,
  era: Era = 'legacy',
): Promise<ScenarioRun> {
  let pending: Answer[] = [];
  let unexpected = 0;
  const client = await connect(
    ownList(target, scenario, mode, era),
    scenario.elicitation
      ? () => {
          const next = pending.shift();
          if (!next) unexpected += 1;
          return next;
        }
      : undefined,
    { era },
  );
  const results: StepResult[] = [];
  try {
    for (const [index, step] of scenario.steps.entries()) {
      const tool = mode === 'claude' ? (claudeName(step.tool) ?? step.tool) : step.tool;
      const args = mode === 'claude' ? claudeInput(step.tool, step.args) : step.args;
      pending = [...(step.answers ?? [])];
      unexpected = 0;
      let text = '';
      let isError = false;
      let rpcError: number | undefined;
      let failed: string | undefined;
      try {
        const result = await client.callTool({ name: tool, arguments: args });
        text = result.content.map((c) => c.text ?? '').join('\n');
        isError = result.isError;
      } catch (error) {
        // A JSON-RPC error is an answer (its text the message); anything else, the call failing.
        const refused = rpcErrorOf(error);
        if (refused) {
          rpcError = refused.code;
          text = refused.message;
        } else failed = (error as Error).message;
      }
      const problems: string[] = [];
      if (failed !== undefined) problems.push('the call failed');
      if (step.expect.text !== undefined && text !== step.expect.text) problems.push('text');
      if (step.expect.match !== undefined && !new RegExp(step.expect.match).test(text)) problems.push('match');
      if (step.expect.isError !== undefined && isError !== step.expect.isError) problems.push('isError');
      if (rpcError !== step.expect.rpcError) problems.push('rpcError');
      if (pending.length) problems.push(`${pending.length} answers left unasked`);
      if (unexpected) problems.push(`${unexpected} questions without an answer`);
      results.push({
        index: index + 1,
        tool,
        args,
        ok: problems.length === 0,
        expected:
          describeExpect(step) + (problems.length > 0 && pending.length ? ` (answers: ${pending.length} unused)` : ''),
        received:
          failed !== undefined
            ? `(the call failed: ${failed})`
            : JSON.stringify(text) +
              (isError ? ' (error result)' : '') +
              (rpcError !== undefined ? ` (JSON-RPC error ${rpcError})` : '') +
              (unexpected ? ` (${unexpected} questions nobody scripted)` : ''),
      });
    }
  } finally {
    await client.close();
  }
  const spoke = client.protocolVersion || ERA_VERSION[era];
  return { scenario: scenario.name, mode, transport: target.kind, era: spoke, steps: results };
}
