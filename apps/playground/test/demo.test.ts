import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentsDemo } from '../src/agents-demo.js';
import { importClaudeFile } from '../src/claude-import.js';
import { CLAUDE_FIXTURE, type DemoResult, HOME, loadScenarios, runDemo } from '../src/demo.js';
import type { Printer } from '../src/output.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const ROOT_README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const PLAYGROUND_README = fileURLToPath(new URL('../README.md', import.meta.url));

function capture(): Printer & { text: () => string } {
  const lines: string[] = [];
  const same = (s: string) => s;
  return {
    line: (t = '') => lines.push(t),
    green: same,
    red: same,
    dim: same,
    bold: same,
    text: () => lines.join('\n'),
  };
}

describe('the demo', () => {
  const out = capture();
  let result: DemoResult;
  // The whole demo, once: every scenario in both eras over stdio and HTTP, the registry, the
  // transcript, the durable list, the team (an embedded PostgreSQL) and the agents. Wide headroom for a busy machine.
  beforeAll(async () => {
    result = await runDemo(out);
  }, 600_000);

  it('runs every scenario, the registry demo, the transcript, the durable list, the team and the agents, all green', () => {
    expect(result.failures).toEqual([]);
    expect(result.failed).toBe(0);
    expect(result.passed).toBeGreaterThan(400);
    const text = out.text();
    for (const heading of [
      '1. Scenarios over stdio in both eras, 2025-11-25 and 2026-07-28',
      '2. Background work',
      '3. A Claude Code transcript replayed in both eras',
      '4. The same scenarios over Streamable HTTP in both eras',
      '5. A durable list (--data-dir, --list) survives a server restart: 2025 era over stdio, 2026 over HTTP',
      '6. A team on one list',
      '7. Agents that talk',
    ]) {
      expect(text).toContain(heading);
    }
    // Each call shows its real arguments, the restart's too.
    expect(text).toMatch(/task_create \(after the restart\) \{"subject":"Next","description":""\}/);
    expect(text).toContain('<system-reminder>');
    expect(text).toMatch(/· claude names · http · 2026-07-28/);
    expect(text.trim().split('\n').at(-1)).toBe(`${result.passed} passed, 0 failed`);
  });

  it('runs every scenario in each of its modes in both eras, over stdio and over HTTP', () => {
    const text = out.text();
    const imported = importClaudeFile(CLAUDE_FIXTURE);
    for (const scenario of [...loadScenarios(), imported]) {
      for (const mode of scenario.modes) {
        for (const transport of ['stdio', 'http']) {
          for (const era of ['2025-11-25', '2026-07-28']) {
            expect(text).toContain(`▶ ${scenario.name} · ${mode} names · ${transport} · ${era}\n`);
          }
        }
      }
    }
    // As many runs in one era as in the other, all green: the same expected answers in both.
    const runs = text.split('\n').filter((line) => line.startsWith('▶ '));
    const legacy = runs.filter((line) => line.endsWith('· 2025-11-25')).length;
    expect(runs.filter((line) => line.endsWith('· 2026-07-28')).length).toBe(legacy);
    // The durable list and the team also ran in the 2026 era, over HTTP.
    expect(text).toContain('▶ a durable list survives a server restart · raider names · http, --data-dir · 2026-07-28');
    expect(text).toMatch(/▶ two servers share one list .* · http, --database-url --claims · 2026-07-28/);
  });

  it('shows two agents on two servers in both eras: a blocker completed, the other agent woken, the task claimed', () => {
    const text = out.text();
    const section = /\n7\. Agents that talk[^\n]*\n([\s\S]*?)\n\n/.exec(text)?.[1] ?? '';
    const lines = section.split('\n');
    const agents = 'two agents on two servers: alice completes a blocker, bob is woken and claims the unblocked task';
    expect(lines.filter((line) => line.startsWith('▶ '))).toEqual([
      `▶ ${agents} · raider names · stdio, --data-dir --claims --agent · 2025-11-25`,
      `▶ ${agents} · raider names · http, --data-dir --claims --agent · 2026-07-28`,
    ]);
    // Every step passed, in both runs: 12 each.
    expect(lines.filter((line) => line.startsWith('  ✗'))).toEqual([]);
    expect(lines.filter((line) => line.startsWith('  ✓'))).toHaveLength(24);
    expect(section).toContain('wait_for_messages (bob, waiting since before #1 completed)');
    expect(section).toMatch(
      /task_claim \(bob, #2 unblocked\) \{"taskId":"2","owner":"bob"\} → "Claimed task #2: Ship it"/,
    );
  });

  it('the READMEs say what the demo prints: its summary line and its steps, one item each', () => {
    const summary = `${result.passed} passed, 0 failed`;
    const named = (readme: string) => /`(\d+ passed, 0 failed)`/.exec(readFileSync(readme, 'utf8'))?.[1];
    expect(named(PLAYGROUND_README)).toBe(summary);
    const headings = out
      .text()
      .split('\n')
      .filter((line) => /^\d+\. /.test(line));
    const steps = /In one run that ends by itself it:\n\n([\s\S]*?)\n\n/.exec(readFileSync(PLAYGROUND_README, 'utf8'));
    expect(steps?.[1]?.split('\n').filter((line) => /^\d+\. /.test(line))).toHaveLength(headings.length);
    expect(named(ROOT_README), 'the summary line the root README.md names').toBe(summary);
  });
});

describe('the agents demo', () => {
  it('alice completes #1 on server A; bob, waiting on server B, gets the exact wake-up, a message, and claims #2', async () => {
    const run = await agentsDemo();
    expect(run.era).toBe('2025-11-25');
    expect(run.steps.filter((step) => !step.ok)).toEqual([]);
    const expected = run.steps.map((step) => [step.tool, JSON.parse(step.expected)]);
    expect(expected).toEqual([
      ['task_create (alice, server A)', 'Task #1 created successfully: Write the parser'],
      ['task_create (alice, server A)', 'Task #2 created successfully: Ship it'],
      ['task_update (alice: #1 blocks #2)', 'Updated task #1 blocks'],
      ['task_update (bob, server B: owns #2)', 'Updated task #2 owner'],
      ['task_claim (bob, #2 still blocked)', 'Task #2 is blocked by #1'],
      ['task_update (alice completes #1)', 'Updated task #1 status'],
      [
        'wait_for_messages (bob, waiting since before #1 completed)',
        [
          '<task-notification>',
          '<task-id>1</task-id>',
          '<task-type>blocker_completed</task-type>',
          '<status>completed</status>',
          '<summary>Task #1 "Write the parser" completed; #2 "Ship it" is no longer blocked by it</summary>',
          '</task-notification>',
        ].join('\n'),
      ],
      ['send_message (alice → bob)', 'Message sent to bob'],
      ['wait_for_messages (bob)', 'Message from alice: The parser is in.'],
      ['wait_for_messages (bob, nothing left)', 'No messages'],
      ['task_claim (bob, #2 unblocked)', 'Claimed task #2: Ship it'],
      ['task_list (alice, server A)', '#1 [completed] Write the parser\n#2 [in_progress] Ship it (bob)'],
    ]);
  }, 120_000);
});

describe('the playground commands', () => {
  it('a mismatch exits non-zero naming the scenario, step, expected and received', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-scenario-'));
    const path = join(dir, 'wrong.json');
    writeFileSync(
      path,
      JSON.stringify({
        name: 'wrong-on-purpose',
        family: 'tasks',
        modes: ['raider'],
        steps: [
          { tool: 'task_list', expect: { text: 'No tasks found' } },
          {
            tool: 'task_create',
            args: { subject: 'A', description: '' },
            expect: { text: 'Task #7 created successfully: A' },
          },
        ],
      }),
    );
    const failed = await run(process.execPath, [CLI, 'scenario', path], {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    }).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('▶ wrong-on-purpose · raider names · stdio');
    expect(failed.stdout).toContain('✗ 2 task_create');
    expect(failed.stdout).toContain('expected "Task #7 created successfully: A"');
    expect(failed.stdout).toContain('received "Task #1 created successfully: A"');
    expect(failed.stdout).toContain('1 passed, 1 failed');
    // The same in the 2026 era.
    const modern = await run(process.execPath, [CLI, 'scenario', path, '--era', 'modern'], {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    }).catch((e) => e);
    expect(modern.code).toBe(1);
    expect(modern.stdout).toContain('▶ wrong-on-purpose · raider names · stdio · 2026-07-28');
    expect(modern.stdout).toContain('received "Task #1 created successfully: A"');
    expect(modern.stdout).toContain('1 passed, 1 failed');
  });

  it('scenario --era takes legacy or modern, nothing else', async () => {
    const file = join(HOME, 'scenarios', 'todo-write.json');
    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };
    const legacy = await run(process.execPath, [CLI, 'scenario', file], { env });
    expect(legacy.stdout).toContain('▶ todo-write · raider names · stdio · 2025-11-25');
    expect(legacy.stdout).toContain('6 passed, 0 failed');
    const modern = await run(process.execPath, [CLI, 'scenario', file, '--era', 'modern'], { env });
    expect(modern.stdout).toContain('▶ todo-write · claude names · stdio · 2026-07-28');
    expect(modern.stdout).toContain('6 passed, 0 failed');
    const wrong = await run(process.execPath, [CLI, 'scenario', file, '--era', '2026']).catch((e) => e);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('playground: scenario: --era expects legacy or modern, received "2026"');
  });

  it('a malformed scenario file exits 2 naming the file, step and reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-scenario-'));
    const path = join(dir, 'broken.json');
    writeFileSync(path, JSON.stringify({ name: 'b', family: 'tasks', steps: [{ tool: 'task_list', expect: {} }] }));
    const failed = await run(process.execPath, [CLI, 'scenario', path]).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(
      `${path}: step 1 (expect): expected at least one of text, match, isError, rpcError`,
    );
  });

  it('colour only on a TTY, never with NO_COLOR', async () => {
    const { printer } = await import('../src/output.js');
    const tty = { isTTY: true, write: () => true } as unknown as NodeJS.WriteStream;
    const pipe = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
    expect(printer(tty, {}).green('ok')).toBe('\u001b[32mok\u001b[39m');
    expect(printer(tty, { NO_COLOR: '1' }).green('ok')).toBe('ok');
    expect(printer(pipe, {}).green('ok')).toBe('ok');
  });
});
