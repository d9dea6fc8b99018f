/**
 * Agents that talk (issue 27): two raider-server processes (stand-ins for two machines) on one
 * list, server A serving the agent alice (`--agent alice`), server B bob (`--agent bob`), both with
 * `--claims`. alice makes a blocker and the task it blocks, bob takes the blocked task and waits
 * (`wait_for_messages`); alice completes the blocker, and bob's wait answers with the wake-up raider
 * sent by itself, a `<task-notification>`; alice sends bob a message, and bob claims the unblocked
 * task (`task_claim`), which alice then sees on her list.
 *
 * The list is shared through one `--data-dir` (a fresh folder per run), not through PostgreSQL:
 * the team demo already shows two servers on one PostgreSQL list, so this one shows the file
 * store carrying tasks, messages and wake-ups between processes (`.messages/` in the list folder,
 * seen by a watcher), and it needs no second database start on a busy machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkedSteps } from './checked-steps.js';
import type { ScenarioRun, StepResult } from './runner.js';
import { type OwnServer, type PlaygroundClient, type Reach, startServer } from './server-process.js';

/** What bob's wait answers once alice completed #1: the wake-up, exactly. */
export const UNBLOCKED = [
  '<task-notification>',
  '<task-id>1</task-id>',
  '<task-type>blocker_completed</task-type>',
  '<status>completed</status>',
  '<summary>Task #1 "Write the parser" completed; #2 "Ship it" is no longer blocked by it</summary>',
  '</task-notification>',
].join('\n');

/** One run of the agents demo, its two servers reached as `reach` says (default: the 2025 era over stdio). */
export async function agentsDemo(reach: Reach = { era: 'legacy', transport: 'stdio' }): Promise<ScenarioRun> {
  const dir = mkdtempSync(join(tmpdir(), 'raider-playground-agents-'));
  const shared = ['--data-dir', dir, '--list', `agents-${reach.era}`, '--claims'];
  const steps: StepResult[] = [];
  const step = checkedSteps(steps);
  const servers: OwnServer[] = [];
  let era: string | undefined;
  try {
    const first = await startServer([...shared, '--agent', 'alice'], reach);
    servers.push(first);
    const second = await startServer([...shared, '--agent', 'bob'], reach);
    servers.push(second);
    const [alice, bob] = [first.client, second.client];
    era = alice.protocolVersion;

    const parser = { subject: 'Write the parser', description: '' };
    await step(
      alice,
      'task_create (alice, server A)',
      'task_create',
      parser,
      'Task #1 created successfully: Write the parser',
    );
    const ship = { subject: 'Ship it', description: '' };
    await step(alice, 'task_create (alice, server A)', 'task_create', ship, 'Task #2 created successfully: Ship it');
    const blocks = { taskId: '1', addBlocks: ['2'] };
    await step(alice, 'task_update (alice: #1 blocks #2)', 'task_update', blocks, 'Updated task #1 blocks');
    // A wake-up goes to the owner of the task a completion unblocks: bob takes #2 first.
    const mine = { taskId: '2', owner: 'bob' };
    await step(bob, 'task_update (bob, server B: owns #2)', 'task_update', mine, 'Updated task #2 owner');
    const claim = { taskId: '2', owner: 'bob' };
    await step(bob, 'task_claim (bob, #2 still blocked)', 'task_claim', claim, 'Task #2 is blocked by #1');

    await completeWhileBobWaits(alice, bob, steps);
    const wait = { timeoutSeconds: 30 };

    const note = { to: 'bob', message: 'The parser is in.' };
    await step(alice, 'send_message (alice → bob)', 'send_message', note, 'Message sent to bob');
    await step(bob, 'wait_for_messages (bob)', 'wait_for_messages', wait, 'Message from alice: The parser is in.');
    await step(bob, 'wait_for_messages (bob, nothing left)', 'wait_for_messages', { timeoutSeconds: 0 }, 'No messages');
    await step(bob, 'task_claim (bob, #2 unblocked)', 'task_claim', claim, 'Claimed task #2: Ship it');
    const after = '#1 [completed] Write the parser\n#2 [in_progress] Ship it (bob)';
    await step(alice, 'task_list (alice, server A)', 'task_list', {}, after);
  } finally {
    await Promise.all(servers.map((server) => server.stop().catch(() => {})));
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    scenario: 'two agents on two servers: alice completes a blocker, bob is woken and claims the unblocked task',
    mode: 'raider',
    transport: `${reach.transport}, --data-dir --claims --agent`,
    era,
    steps,
  };
}

/**
 * bob waits on server B while alice completes #1 on server A: bob's wait answers with the wake-up
 * (`UNBLOCKED`). Both steps are recorded in `steps`, the completion first.
 */
async function completeWhileBobWaits(
  alice: PlaygroundClient,
  bob: PlaygroundClient,
  steps: StepResult[],
): Promise<void> {
  const step = checkedSteps(steps);
  // bob waits on server B; alice completes #1 on server A meanwhile. Either answer may come
  // first (alice's call answers once the wake-up is in bob's inbox, and bob's wait may answer
  // sooner), so the wait is recorded apart and listed after the completion, the same in every run.
  const wait = { timeoutSeconds: 30 };
  const waited: StepResult[] = [];
  const woken = checkedSteps(waited)(
    bob,
    'wait_for_messages (bob, waiting since before #1 completed)',
    'wait_for_messages',
    wait,
    UNBLOCKED,
  );
  woken.catch(() => {}); // a failed wait is reported where it is awaited, below, not as an unhandled rejection
  // Give bob's call a moment to start waiting (the answer is the same if it starts later: the wake-up waits in his inbox).
  await new Promise((resolve) => setTimeout(resolve, 500));
  const done = { taskId: '1', status: 'completed' };
  await step(alice, 'task_update (alice completes #1)', 'task_update', done, 'Updated task #1 status');
  await woken;
  for (const result of waited) steps.push({ ...result, index: steps.length + 1 });
}
