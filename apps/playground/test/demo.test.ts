import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../src/demo.js';
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
  it('runs every scenario, the registry demo and the transcript, over stdio and HTTP, all green', async () => {
    const out = capture();
    const result = await runDemo(out);
    expect(result.failures).toEqual([]);
    expect(result.failed).toBe(0);
    expect(result.passed).toBeGreaterThan(150);
    const text = out.text();
    for (const heading of [
      '1. Scenarios over stdio',
      '2. Background work',
      '3. A Claude Code transcript',
      '4. The same scenarios over Streamable HTTP',
      '5. A durable list (--data-dir, --list) survives a server restart',
    ]) {
      expect(text).toContain(heading);
    }
    // Each call shows its real arguments, the restart's too.
    expect(text).toMatch(/task_create \(after the restart\) \{"subject":"Next","description":""\}/);
    // The READMEs say what the demo prints: its summary line and its steps, one item each.
    const summary = `${result.passed} passed, 0 failed`;
    for (const readme of [ROOT_README, PLAYGROUND_README]) expect(readFileSync(readme, 'utf8')).toContain(summary);
    const headings = text.split('\n').filter((line) => /^\d+\. /.test(line));
    const steps = /In one run that ends by itself it:\n\n([\s\S]*?)\n\n/.exec(readFileSync(PLAYGROUND_README, 'utf8'));
    expect(steps?.[1]?.split('\n').filter((line) => /^\d+\. /.test(line))).toHaveLength(headings.length);
    expect(text).toContain('<system-reminder>');
    expect(text).toMatch(/· claude names · http/);
    expect(text.trim().split('\n').at(-1)).toBe(`${result.passed} passed, 0 failed`);
  }, 120_000);

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
  });

  it('a malformed scenario file exits 2 naming the file, step and reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-scenario-'));
    const path = join(dir, 'broken.json');
    writeFileSync(path, JSON.stringify({ name: 'b', family: 'tasks', steps: [{ tool: 'task_list', expect: {} }] }));
    const failed = await run(process.execPath, [CLI, 'scenario', path]).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(`${path}: step 1 (expect): expected at least one of text, match, isError`);
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
