/**
 * A team on one list: two raider-server processes (stand-ins for two machines) keep one list in
 * PostgreSQL (an embedded PostgreSQL 18 from the npm registry, started for the demo the way the
 * postgres-store tests start theirs) and take tasks from it with task_claim, each task by exactly
 * one of them. One database for every run, a list of its own for each (`team-legacy`, ...).
 */
import { startPostgres } from '../../../packages/postgres-store/test/postgres-server.js';
import { checkedSteps } from './checked-steps.js';
import type { ScenarioRun, StepResult } from './runner.js';
import { type OwnServer, type Reach, startServer } from './server-process.js';

/** One run of the team demo on `databaseUrl`, its two servers reached as `reach` says. */
async function teamRun(databaseUrl: string, reach: Reach): Promise<ScenarioRun> {
  const steps: StepResult[] = [];
  const step = checkedSteps(steps);
  const args = ['--database-url', databaseUrl, '--list', `team-${reach.era}`, '--claims'];
  const servers: OwnServer[] = [];
  let era: string | undefined;
  try {
    const first = await startServer(args, reach);
    servers.push(first);
    const second = await startServer(args, reach);
    servers.push(second);
    const [a, b] = [first.client, second.client];
    era = a.protocolVersion;
    const parser = { subject: 'Write the parser', description: '' };
    await step(a, 'task_create (server A)', 'task_create', parser, 'Task #1 created successfully: Write the parser');
    const printer = { subject: 'Write the printer', description: '' };
    await step(a, 'task_create (server A)', 'task_create', printer, 'Task #2 created successfully: Write the printer');
    const both = '#1 [pending] Write the parser\n#2 [pending] Write the printer';
    await step(b, 'task_list (server B)', 'task_list', {}, both);
    const bob = { owner: 'bob', leaseSeconds: 600 };
    await step(b, 'task_claim (server B)', 'task_claim', bob, 'Claimed task #1: Write the parser');
    const again = { taskId: '1', owner: 'alice' };
    await step(a, 'task_claim (server A, the same task)', 'task_claim', again, 'Task #1 is already claimed by bob');
    const alice = { owner: 'alice', leaseSeconds: 600 };
    await step(a, 'task_claim (server A)', 'task_claim', alice, 'Claimed task #2: Write the printer');
    await step(b, 'task_claim (server B, nothing left)', 'task_claim', { owner: 'bob' }, 'No task is free to claim');
    const done = { taskId: '1', status: 'completed' };
    await step(b, 'task_update (server B)', 'task_update', done, 'Updated task #1 status');
    const after = '#1 [completed] Write the parser (bob)\n#2 [in_progress] Write the printer (alice)';
    await step(a, 'task_list (server A)', 'task_list', {}, after);
  } finally {
    await Promise.all(servers.map((server) => server.stop().catch(() => {})));
  }
  return {
    scenario: 'two servers share one list through PostgreSQL and claim its tasks',
    mode: 'raider',
    transport: `${reach.transport}, --database-url --claims`,
    era,
    steps,
  };
}

/** Runs the team demo once per entry of `reaches` (default: the 2025 era over stdio), one database for all. */
export async function teamDemo(reaches: Reach[] = [{ era: 'legacy', transport: 'stdio' }]): Promise<ScenarioRun[]> {
  const database = await startPostgres();
  try {
    const runs: ScenarioRun[] = [];
    for (const reach of reaches) runs.push(await teamRun(database.url, reach));
    return runs;
  } finally {
    await database.destroy();
  }
}
