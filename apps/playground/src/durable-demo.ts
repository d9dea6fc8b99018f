/**
 * A durable list surviving a server restart: raider-server with --data-dir and --list, a few
 * changes, the server stopped, a new one started on the same list; in either era, over stdio or
 * HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkedSteps } from './checked-steps.js';
import type { ScenarioRun, StepResult } from './runner.js';
import { type Reach, startServer } from './server-process.js';

/** Runs the restart demo as one scenario run of checked steps (default: the 2025 era over stdio). */
export async function durableDemo(reach: Reach = { era: 'legacy', transport: 'stdio' }): Promise<ScenarioRun> {
  const dir = mkdtempSync(join(tmpdir(), 'raider-playground-'));
  const args = ['--data-dir', dir, '--list', 'playground'];
  const steps: StepResult[] = [];
  /** Calls `tool` with `args` on `client` and records the step: its real arguments, expected and received text. */
  const step = checkedSteps(steps);
  let era: string | undefined;

  try {
    const first = await startServer(args, reach);
    era = first.client.protocolVersion;
    try {
      const client = first.client;
      const survive = { subject: 'Survive a restart', description: '' };
      await step(client, 'task_create', 'task_create', survive, 'Task #1 created successfully: Survive a restart');
      const unique = { subject: 'Keep ids unique', description: '' };
      await step(client, 'task_create', 'task_create', unique, 'Task #2 created successfully: Keep ids unique');
      await step(client, 'task_update', 'task_update', { taskId: '2', status: 'deleted' }, 'Updated task #2 deleted');
      await step(client, 'task_list (first server)', 'task_list', {}, '#1 [pending] Survive a restart');
    } finally {
      await first.stop();
    }

    const second = await startServer(args, reach);
    try {
      const client = second.client;
      await step(client, 'task_list (after the restart)', 'task_list', {}, '#1 [pending] Survive a restart');
      const next = { subject: 'Next', description: '' };
      await step(client, 'task_create (after the restart)', 'task_create', next, 'Task #3 created successfully: Next');
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    scenario: 'a durable list survives a server restart',
    mode: 'raider',
    transport: `${reach.transport}, --data-dir`,
    era,
    steps,
  };
}
