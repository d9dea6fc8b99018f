import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOME, loadScenarios } from '../src/demo.js';
import { loadScenario, ScenarioError, scenarioJsonSchema } from '../src/scenario.js';

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
      /^expected at least one of text, match, isError$/,
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
