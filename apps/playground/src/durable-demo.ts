/**
 * A durable list surviving a server restart: raider-server with --data-dir and --list, a few
 * changes, the server stopped, a new one started on the same list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioRun, StepResult } from './runner.js';
import { connect } from './server-process.js';

const text = (result: unknown) => ((result as { content: { text: string }[] }).content[0]?.text ?? '').toString();

/** Runs the restart demo as one scenario run of checked steps. */
export async function durableDemo(): Promise<ScenarioRun> {
  const dir = mkdtempSync(join(tmpdir(), 'raider-playground-'));
  const args = ['--data-dir', dir, '--list', 'playground'];
  const steps: StepResult[] = [];
  const check = (tool: string, received: string, expected: string) =>
    steps.push({
      index: steps.length + 1,
      tool,
      args: {},
      ok: received === expected,
      expected: JSON.stringify(expected),
      received: JSON.stringify(received),
    });
  try {
    const first = await connect({ kind: 'stdio', args });
    for (const subject of ['Survive a restart', 'Keep ids unique']) {
      await first.callTool({ name: 'task_create', arguments: { subject, description: '' } });
    }
    await first.callTool({ name: 'task_update', arguments: { taskId: '2', status: 'deleted' } });
    check(
      'task_list (first server)',
      text(await first.callTool({ name: 'task_list', arguments: {} })),
      '#1 [pending] Survive a restart',
    );
    await first.close();

    const second = await connect({ kind: 'stdio', args });
    check(
      'task_list (after the restart)',
      text(await second.callTool({ name: 'task_list', arguments: {} })),
      '#1 [pending] Survive a restart',
    );
    check(
      'task_create (after the restart)',
      text(await second.callTool({ name: 'task_create', arguments: { subject: 'Next', description: '' } })),
      'Task #3 created successfully: Next',
    );
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    scenario: 'a durable list survives a server restart',
    mode: 'raider',
    transport: 'stdio, --data-dir',
    steps,
  };
}
