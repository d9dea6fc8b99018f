import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOME, loadScenarios } from '../src/demo.js';
import { runScenario, serverArgs } from '../src/runner.js';
import { loadScenario, ScenarioError, scenarioJsonSchema } from '../src/scenario.js';
import { connect, ERAS } from '../src/server-process.js';

const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const step = { tool: 'task_list', expect: { text: 'No tasks found' } };

describe('the scenario loader', () => {
  it('loads every scenario of the playground', () => {
    const scenarios = loadScenarios();
    expect(scenarios.length).toBeGreaterThanOrEqual(7);
    expect(new Set(scenarios.map((s) => s.family))).toEqual(new Set(['tasks', 'todo_write', 'todo']));
  });

  it('fills in the defaults: both name modes, an eliciting client, empty args', () => {
    const scenario = loadScenario(file('defaults.json', { name: 'd', family: 'tasks', steps: [step] }));
    expect(scenario.modes).toEqual(['raider', 'claude']);
    expect(scenario.elicitation).toBe(true);
    expect(scenario.steps[0]?.args).toEqual({});
  });

  it.each([
    ['not-json.json', '{ "name": ', 'the file', /^is not JSON/],
    ['no-family.json', { name: 'x', steps: [step] }, 'family', /expected one of/],
    ['no-steps.json', { name: 'x', family: 'tasks', steps: [] }, 'steps', /expected array to have >=1 items|Too small/],
    [
      'no-expect.json',
      { name: 'x', family: 'tasks', steps: [step, { tool: 'task_list', expect: {} }] },
      'step 2 (expect)',
      /^expected at least one of text, match, isError, rpcError$/,
    ],
    [
      'rpc-and-result.json',
      { name: 'x', family: 'tasks', steps: [{ tool: 'nope', expect: { rpcError: -32602, isError: true } }] },
      'step 1 (expect)',
      /^expected rpcError or isError, not both/,
    ],
    [
      'bad-regex.json',
      { name: 'x', family: 'tasks', steps: [{ tool: 'task_list', expect: { match: '(' } }] },
      'step 1 (expect.match)',
      /^expected a regular expression$/,
    ],
    [
      'unknown-key.json',
      { name: 'x', family: 'tasks', steps: [{ ...step, expected: {} }] },
      'step 1',
      /Unrecognized key/,
    ],
    [
      'bad-answer.json',
      { name: 'x', family: 'tasks', steps: [{ ...step, answers: [{ action: 'maybe' }] }] },
      'step 1 (answers.0.action)',
      /expected one of/,
    ],
  ])('rejects %s with the file, the step and the reason', (name, content, where, reason) => {
    const path = file(name, content);
    let error: unknown;
    try {
      loadScenario(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    const { file: f, where: w, reason: r, message } = error as ScenarioError;
    expect(f).toBe(path);
    expect(w).toBe(where);
    expect(r).toMatch(reason);
    expect(message).toBe(`${path}: ${where}: ${r}`);
  });

  it('names a file that cannot be read', () => {
    expect(() => loadScenario(join(dir, 'missing.json'))).toThrow(/missing\.json: the file: cannot be read \(ENOENT\)/);
  });

  it('scenario.schema.json is the schema the loader uses (regenerate with pnpm schema)', () => {
    const committed = JSON.parse(readFileSync(join(HOME, 'scenario.schema.json'), 'utf8'));
    expect(committed).toEqual(scenarioJsonSchema());
  });
});

describe('every scenario in both eras', () => {
  // Scenarios are era-neutral data: each passes with a 2025-era client and a 2026-era one, and
  // the two receive the very same answers, step by step (a fresh server per run, in its first mode).
  it.each(loadScenarios().map((scenario) => [scenario.name, scenario] as const))(
    '%s passes in the 2025 and the 2026 era with the same answers',
    async (_name, scenario) => {
      const mode = scenario.modes[0] as 'raider' | 'claude';
      const target = { kind: 'stdio', args: serverArgs(scenario, mode) } as const;
      const [legacy, modern] = await Promise.all(ERAS.map((era) => runScenario(scenario, mode, target, era)));
      expect(legacy?.era).toBe('2025-11-25');
      expect(modern?.era).toBe('2026-07-28');
      for (const run of [legacy, modern]) expect(run?.steps.filter((step) => !step.ok)).toEqual([]);
      expect(modern?.steps.map((step) => step.received)).toEqual(legacy?.steps.map((step) => step.received));
    },
    120_000,
  );
});

describe('connect', () => {
  it.each(ERAS)(
    'gives the %s era the same tools, resource and refusal of an unknown tool',
    async (era) => {
      const client = await connect({ kind: 'stdio', args: ['--family', 'tasks'] }, undefined, { era });
      try {
        expect(client.era).toBe(era);
        expect(client.protocolVersion).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
        const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
        expect(names).toEqual(['ask_user', 'task_create', 'task_get', 'task_list', 'task_update']);
        await client.callTool({ name: 'task_create', arguments: { subject: 'Read me', description: '' } });
        const read = await client.readResource({ uri: 'raider://tasks' });
        const state = JSON.parse(read.contents[0]?.text ?? '{}') as { tasks: { content: string }[] };
        expect(state.tasks.map((task) => task.content)).toEqual(['Read me']);
        await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});
