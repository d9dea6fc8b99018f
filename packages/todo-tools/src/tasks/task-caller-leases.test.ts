// Leases held by the authenticated caller (issue 38): an agent's sessions share its lease, other
// agents are fenced, and task_claim claims only for the caller.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../limits.js';
import { memoryTaskStore, type TaskStore } from '../store/task-store.js';
import { presentationOf } from '../tool-presentation.js';
import { SyncedTaskList } from './synced-task-list.js';
import { TaskCalls } from './task-calls.js';

/** A TaskCalls of its own (one session, one conversation) on `store`. */
function sessionOn(store: TaskStore, session: string, now: () => number): TaskCalls {
  const synced = new SyncedTaskList({ store, onUpdate: undefined, onChange: undefined, now, maxMetadataDepth: 32 });
  return new TaskCalls({
    synced,
    limits: DEFAULT_LIMITS,
    beforeTask: undefined,
    session,
    now,
    presentation: presentationOf({}),
  });
}

/** Two sessions of bob, one of mallory and one unauthenticated session, on one store holding `Parse`. */
async function team(start: number) {
  let now = start;
  const clock = {
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
  const store = memoryTaskStore();
  const [bobA, bobB, mallory, anonymous] = ['bob-a', 'bob-b', 'mallory-1', 'anonymous'].map((session) =>
    sessionOn(store, session, () => now),
  ) as [TaskCalls, TaskCalls, TaskCalls, TaskCalls];
  await bobA.create({ subject: 'Parse', description: '' });
  return { store, clock, bobA, bobB, mallory, anonymous };
}

const LEASE_END = '2026-12-02T10:00:00Z';

describe('leases held by the authenticated caller', () => {
  it("bob's second session renews bob's lease; mallory is refused an update, naming bob, until it ends", async () => {
    const { store, clock, bobA, bobB, mallory } = await team(Date.UTC(2026, 11, 2, 9, 45, 0));
    expect((await bobA.claim({ taskId: '1', owner: 'bob', leaseSeconds: 600 }, 'bob')).text).toBe(
      'Claimed task #1: Parse',
    );
    // The lease is bob's, not the session's.
    expect((await store.load()).tasks[0]?.claim).toMatchObject({ owner: 'bob', session: 'bob' });
    clock.advance(300);
    expect((await bobB.update({ taskId: '1', description: 'half' }, undefined, 'bob')).text).toBe(
      'Updated task #1 description',
    );
    expect((await store.load()).tasks[0]?.claim?.expiresAt).toBe(Date.parse(LEASE_END));
    const refusal = `Error: task #1 is claimed by bob under bob's lease until ${LEASE_END}; only bob can change it until then (claim it with task_claim once the lease has ended)`;
    for (const update of [
      { taskId: '1', status: 'completed' },
      { taskId: '1', owner: 'mallory' },
      { taskId: '1', status: 'deleted' },
    ]) {
      expect(await mallory.update(update, undefined, 'mallory')).toEqual({ text: refusal, isError: true });
    }
    // Bob's first session renews it too, and goes on after the other completed it.
    expect((await bobA.update({ taskId: '1' }, undefined, 'bob')).text).toBe('Updated task #1 (no changes)');
    expect((await bobB.update({ taskId: '1', status: 'completed' }, undefined, 'bob')).text).toBe(
      'Updated task #1 status',
    );
    expect((await bobA.update({ taskId: '1', description: 'done' }, undefined, 'bob')).text).toBe(
      'Updated task #1 description',
    );
    expect((await store.load()).tasks[0]).toMatchObject({ owner: 'bob', status: 'completed', description: 'done' });
  });

  it('task_claim claims only for the caller: another owner is an error, and nothing changes', async () => {
    const { store, bobA, mallory } = await team(Date.UTC(2026, 11, 2, 9, 50, 0));
    expect(await mallory.claim({ taskId: '1', owner: 'bob', leaseSeconds: 600 }, 'mallory')).toEqual({
      text: 'Error: owner: expected "mallory" (task_claim claims for the agent this call is authenticated as), received "bob"',
      isError: true,
    });
    // Through the tool's definition: the context's caller reaches the call.
    const [claimTool] = bobA.claimDefinitions();
    expect(await claimTool?.handler({ owner: 'mallory' }, { caller: 'bob' })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Error: owner: expected "bob" (task_claim claims for the agent this call is authenticated as), received "mallory"',
        },
      ],
      isError: true,
    });
    // Names are shown on one line, quoted.
    expect((await bobA.claim({ owner: 'bob\nx' }, 'bob')).text).toBe(
      'Error: owner: expected "bob" (task_claim claims for the agent this call is authenticated as), received "bob⏎x"',
    );
    expect((await store.load()).tasks[0]).toMatchObject({ status: 'pending' });
    expect((await store.load()).tasks[0]).not.toHaveProperty('owner');
  });

  it("mallory cannot claim for herself while bob's lease is live; once it lapsed she can, and bob is told", async () => {
    const { clock, bobA, mallory } = await team(Date.UTC(2026, 11, 2, 9, 50, 0));
    await bobA.claim({ taskId: '1', owner: 'bob', leaseSeconds: 600 }, 'bob');
    expect(await mallory.claim({ taskId: '1', owner: 'mallory' }, 'mallory')).toMatchObject({
      text: `Task #1 is already claimed by bob under bob's lease, until ${LEASE_END}`,
      isError: false,
      structured: { success: false, taskId: '1' },
    });
    expect((await mallory.claim({ owner: 'mallory' }, 'mallory')).text).toBe('No task is free to claim');
    clock.advance(600);
    expect((await mallory.claim({ owner: 'mallory', leaseSeconds: 60 }, 'mallory')).text).toBe(
      'Claimed task #1: Parse',
    );
    expect((await bobA.update({ taskId: '1', status: 'completed' }, undefined, 'bob')).text).toBe(
      'Error: your claim on task #1 expired (its lease ran out before this session touched it again); claim it again with task_claim',
    );
  });

  it("a session without a caller is fenced from an agent's lease in today's words, and fences the agent so", async () => {
    const start = Date.UTC(2026, 11, 2, 9, 50, 0);
    const { bobA, anonymous } = await team(start);
    await bobA.claim({ taskId: '1', owner: 'bob', leaseSeconds: 600 }, 'bob');
    expect((await anonymous.update({ taskId: '1', status: 'completed' })).text).toBe(
      `Error: task #1 is claimed by bob under another session's lease until ${LEASE_END}; only that session can change it until then (claim it with task_claim once the lease has ended)`,
    );
    expect((await anonymous.claim({ taskId: '1', owner: 'bob' })).text).toBe(
      `Task #1 is already claimed by bob under another session's lease, until ${LEASE_END}`,
    );
    // A lease a session took under an agent's name is not that agent's.
    const other = await team(start);
    await other.anonymous.claim({ taskId: '1', owner: 'bob', leaseSeconds: 600 });
    expect((await other.bobA.update({ taskId: '1', subject: 'Mine' }, undefined, 'bob')).text).toBe(
      `Error: task #1 is claimed by bob under another session's lease until ${LEASE_END}; only that session can change it until then (claim it with task_claim once the lease has ended)`,
    );
    expect((await other.bobA.claim({ taskId: '1', owner: 'bob' }, 'bob')).text).toBe(
      `Task #1 is already claimed by bob under another session's lease, until ${LEASE_END}`,
    );
  });
});
