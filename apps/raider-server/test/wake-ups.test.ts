// The wake-ups raider sends by itself (issues 27, 36), as <task-notification>s with the exact texts
// and forms (a <task-type> naming the notice, a <status> only for an end): a task completed or
// deleted wakes the owners of the tasks it blocked, a lapsed claim its owner, a change by someone
// else the task's owner; each change is announced once.
import { describe, expect, it } from 'vitest';
import { agentClient, serve } from './agent-clients.js';
import { wakeUpText } from './wake-up-text.js';

describe.each(['legacy', 'modern'] as const)('wake-ups, %s era', (era) => {
  it('a task completed by alice wakes bob, who owns a task it blocked, with the exact text', async () => {
    const server = await serve();
    const list = `blockers-${era}`;
    const alice = await agentClient(server.url, era, list, 'alice');
    const bob = await agentClient(server.url, era, list, 'bob');
    await alice.call('task_create', { subject: 'Write the parser', description: '' });
    await alice.call('task_create', { subject: 'Write the lexer', description: '' });
    await bob.call('task_create', { subject: 'Ship it', description: '' });
    await bob.call('task_create', { subject: 'Announce it', description: '' });
    await alice.call('task_update', { taskId: '1', owner: 'alice', addBlocks: ['3', '4'] });
    await alice.call('task_update', { taskId: '2', addBlocks: ['4'] });
    // bob takes his own tasks: nobody else changed them, so nothing is sent.
    await bob.call('task_update', { taskId: '3', owner: 'bob' });
    await bob.call('task_update', { taskId: '4', owner: 'bob' });
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');

    const waiting = bob.call('wait_for_messages', { timeoutSeconds: 30 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await alice.call('task_update', { taskId: '1', status: 'completed' })).toBe('Updated task #1 status');
    expect(await waiting).toBe(
      wakeUpText(
        '1',
        'blocker_completed',
        'completed',
        'Task #1 "Write the parser" completed; #3 "Ship it" is no longer blocked by it; #4 "Announce it" is no longer blocked by it (still by #2)',
      ),
    );
    // Announced once, and not to alice, who completed it.
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
    expect(await alice.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');

    // A deleted blocker, and a change made by someone else, in one answer (notifications due together).
    await alice.call('task_update', { taskId: '2', status: 'deleted' });
    await alice.call('task_update', { taskId: '3', description: 'Tag v1 and publish' });
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      [
        wakeUpText(
          '2',
          'blocker_deleted',
          'killed',
          'Task #2 "Write the lexer" was deleted; #4 "Announce it" is no longer blocked by it',
        ),
        wakeUpText('3', 'task_changed', undefined, 'alice changed your task #3 "Ship it": description'),
      ].join('\n'),
    );
    // Handing bob's task to carol: bob hears it is no longer his, carol that it is hers.
    await alice.call('task_update', { taskId: '4', owner: 'carol' });
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      wakeUpText(
        '4',
        'task_unassigned',
        undefined,
        'alice changed your task #4 "Announce it": owner (now carol); you are no longer its owner',
      ),
    );
    const carol = await agentClient(server.url, era, list, 'carol');
    expect(await carol.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      wakeUpText('4', 'task_assigned', undefined, 'alice made you the owner of task #4 "Announce it"'),
    );
  });

  it("a claim's lapsed lease notifies its owner and the agents waiting on the task", async () => {
    const server = await serve(['--claims']);
    const list = `lapse-${era}`;
    const alice = await agentClient(server.url, era, list, 'alice');
    const bob = await agentClient(server.url, era, list, 'bob');
    await alice.call('task_create', { subject: 'Write the parser', description: '' });
    await bob.call('task_create', { subject: 'Ship it', description: '' });
    await bob.call('task_create', { subject: 'Announce it', description: '' });
    await bob.call('task_update', { taskId: '2', owner: 'bob', addBlockedBy: ['1'] });
    await bob.call('task_update', { taskId: '3', owner: 'bob', addBlockedBy: ['1'] });
    expect(await alice.call('task_claim', { taskId: '1', owner: 'alice', leaseSeconds: 1 })).toBe(
      'Claimed task #1: Write the parser',
    );
    expect(await alice.call('wait_for_messages', { timeoutSeconds: 30 })).toBe(
      wakeUpText(
        '1',
        'claim_lapsed',
        'failed',
        'Your claim on task #1 "Write the parser" lapsed: no update within its 1-second lease; it is pending and unowned again',
      ),
    );
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 30 })).toBe(
      wakeUpText(
        '1',
        'blocker_claim_lapsed',
        'failed',
        'The claim of alice on task #1 "Write the parser", which blocks your tasks #2 "Ship it", #3 "Announce it", lapsed; it is pending and unowned again',
      ),
    );
    expect(await alice.call('task_list')).toBe(
      '#1 [pending] Write the parser\n#2 [pending] Ship it (bob) [blocked by #1]\n#3 [pending] Announce it (bob) [blocked by #1]',
    );
    // Told once.
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
  });
});

describe('wake-ups and agents that name none', () => {
  it('a change through a client without an agent is announced as made by someone', async () => {
    const server = await serve();
    const bob = await agentClient(server.url, 'modern', 'someone', 'bob');
    const anonymous = await agentClient(server.url, 'modern', 'someone');
    await bob.call('task_create', { subject: 'Ship it', description: '' });
    await bob.call('task_update', { taskId: '1', owner: 'bob' });
    await anonymous.call('task_update', { taskId: '1', status: 'in_progress' });
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
      wakeUpText('1', 'task_changed', undefined, 'Someone changed your task #1 "Ship it": status (now in_progress)'),
    );
  });
});
