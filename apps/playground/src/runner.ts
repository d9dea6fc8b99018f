/**
 * Runs a scenario against a server: each step's tool (under Claude Code's names when the mode
 * says so, arguments translated with @raider/tool-names), the person's answers played by the
 * client's elicitation handler, and the result compared with what the step expects.
 */
import { claudeInput, claudeName } from '@raider/tool-names';
import type { Answer, Scenario, Step } from './scenario.js';
import { connect, type Target } from './server-process.js';

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

/** One run of a scenario in one mode over one transport. */
export interface ScenarioRun {
  scenario: string;
  mode: 'raider' | 'claude';
  transport: string;
  steps: StepResult[];
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
  return parts.join(' and ');
}

/** Runs `scenario` in `mode` against `target` (a fresh server per run over stdio). */
export async function runScenario(scenario: Scenario, mode: 'raider' | 'claude', target: Target): Promise<ScenarioRun> {
  let pending: Answer[] = [];
  let unexpected = 0;
  const client = await connect(
    target,
    scenario.elicitation
      ? () => {
          const next = pending.shift();
          if (!next) unexpected += 1;
          return next as never;
        }
      : undefined,
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
      try {
        const result = await client.callTool({ name: tool, arguments: args });
        const content = result.content as { type: string; text?: string }[];
        text = content.map((c) => c.text ?? '').join('\n');
        isError = result.isError === true;
      } catch (error) {
        text = `(the call failed: ${(error as Error).message})`;
        isError = true;
      }
      const problems: string[] = [];
      if (step.expect.text !== undefined && text !== step.expect.text) problems.push('text');
      if (step.expect.match !== undefined && !new RegExp(step.expect.match).test(text)) problems.push('match');
      if (step.expect.isError !== undefined && isError !== step.expect.isError) problems.push('isError');
      if (pending.length) problems.push(`${pending.length} answers left unasked`);
      if (unexpected) problems.push(`${unexpected} questions without an answer`);
      results.push({
        index: index + 1,
        tool,
        args,
        ok: problems.length === 0,
        expected:
          describeExpect(step) + (problems.length > 0 && pending.length ? ` (answers: ${pending.length} unused)` : ''),
        received: `${JSON.stringify(text)}${isError ? ' (error result)' : ''}${unexpected ? ` (${unexpected} questions nobody scripted)` : ''}`,
      });
    }
  } finally {
    await client.close();
  }
  return { scenario: scenario.name, mode, transport: target.kind, steps: results };
}
