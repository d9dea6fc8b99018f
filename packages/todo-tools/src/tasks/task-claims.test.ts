// task_claim: atomic claims, their answers, and leases that lapse.
import { afterEach, describe, expect, it } from 'vitest';
import { memoryTaskStore, type TaskItem, type TaskStore, TaskTools, type TaskToolsOptions } from '../index.js';
import { closeClients, SDK_MAJORS } from '../testing/sdk-majors.js';

async function listOf(subjects: string[], options: TaskToolsOptions = {}) {
  const tools = new TaskTools(options);
  for (const subject of subjects) await tools.createTask({ subject, description: '' });
  return tools;
}

describe('task_claim', () => {
  it('answers in the style of the task tools', async () => {
    const tools = await listOf(['Design', 'Write the parser', 'Ship', 'Docs']);
    await tools.updateTask({ taskId: '3', addBlockedBy: ['1', '2'] });
    await tools.updateTask({ taskId: '4', status: 'completed' });
    expect((await tools.claimTask({ taskId: '2', owner: 'bob' })).text).toBe('Claimed task #2: Write the parser');
    expect(tools.getTask('2')).toContain('Status: in_progress');
    expect(tools.listTasks()).toContain('#2 [in_progress] Write the parser (bob)');
    expect((await tools.claimTask({ taskId: '2', owner: 'alice' })).text).toBe('Task #2 is already claimed by bob');
    expect((await tools.claimTask({ taskId: '3', owner: 'alice' })).text).toBe('Task #3 is blocked by #1, #2');
    expect((await tools.claimTask({ taskId: '4', owner: 'alice' })).text).toBe('Task #4 is already completed');
    expect((await tools.claimTask({ taskId: '99', owner: 'alice' })).text).toBe('Task not found');
    expect((await tools.claimTask({ owner: 'alice' })).text).toBe('Claimed task #1: Design');
    expect((await tools.claimTask({ owner: 'carol' })).text).toBe('No task is free to claim');
    // The holder claiming again keeps it.
    expect((await tools.claimTask({ taskId: '2', owner: 'bob' })).text).toBe('Claimed task #2: Write the parser');
  });

  it('without a taskId takes the lowest-id task that is pending, unowned and not blocked', async () => {
    const tools = await listOf(['A', 'B', 'C', 'D', 'E']);
    await tools.updateTask({ taskId: '1', owner: 'someone' });
    await tools.updateTask({ taskId: '2', status: 'in_progress' });
    await tools.updateTask({ taskId: '3', addBlockedBy: ['2'] });
    await tools.createTask({ subject: 'Hidden', description: '', metadata: { _internal: true } });
    expect((await tools.claimTask({ owner: 'x' })).text).toBe('Claimed task #4: D');
    await tools.updateTask({ taskId: '2', status: 'completed' });
    expect((await tools.claimTask({ owner: 'x' })).text).toBe('Claimed task #3: C');
  });

  it('refuses bad arguments clearly, changing nothing', async () => {
    const tools = await listOf(['A']);
    expect((await tools.claimTask({ owner: '' })).text).toMatch(/^Error: owner: /);
    expect((await tools.claimTask({ owner: 'x', leaseSeconds: 0 })).text).toBe(
      'Error: leaseSeconds: expected at least 1 second, received 0',
    );
    expect((await tools.claimTask({ owner: 'x', leaseSeconds: 1.5 })).text).toBe(
      'Error: leaseSeconds: expected a whole number of seconds, received 1.5',
    );
    expect((await tools.claimTask({ owner: 'x', extra: 1 })).isError).toBe(true);
    expect(tools.listTasks()).toBe('#1 [pending] A');
  });

  it('a lease lapses unless its session touches the task: the task goes back, the session is refused until it claims again', async () => {
    let now = 1_000_000;
    const store = memoryTaskStore();
    const agent = await listOf(['Parse', 'Print'], { store, session: 'agent-a', now: () => now });
    const other = new TaskTools({ store, session: 'agent-b', now: () => now });
    expect((await agent.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 10 })).text).toBe(
      'Claimed task #1: Parse',
    );
    now += 8_000;
    // Its update renews the lease (even one that changes no field).
    expect((await agent.updateTask({ taskId: '1', status: 'in_progress' })).text).toBe('Updated task #1 (no changes)');
    now += 8_000;
    expect((await other.claimTask({ taskId: '1', owner: 'bob' })).text).toBe('Task #1 is already claimed by alice');
    now += 3_000;
    // 11 s since the last touch: the next change of the list lets the claim go.
    expect((await other.claimTask({ owner: 'bob' })).text).toBe('Claimed task #1: Parse');
    expect((await agent.updateTask({ taskId: '1', status: 'completed' })).text).toBe(
      'Error: your claim on task #1 expired (its lease ran out before this session touched it again); claim it again with task_claim',
    );
    expect(other.getTask('1')).toContain('Status: in_progress');
    // Claimed again (once free), its updates go through.
    await other.updateTask({ taskId: '1', status: 'completed' });
    expect((await agent.claimTask({ taskId: '2', owner: 'alice', leaseSeconds: 10 })).text).toBe(
      'Claimed task #2: Print',
    );
    expect((await agent.updateTask({ taskId: '2', status: 'completed' })).text).toBe('Updated task #2 status');
    expect((await agent.updateTask({ taskId: '2', subject: 'Printed' })).text).toBe('Updated task #2 subject');
  });

  it('a lapsed lease left alone: the next change sends the task back to pending and clears its owner', async () => {
    let now = 0;
    const tools = await listOf(['A', 'B'], { now: () => now });
    await tools.claimTask({ taskId: '1', owner: 'crashed', leaseSeconds: 5 });
    now = 6_000;
    await tools.createTask({ subject: 'C', description: '' });
    expect(tools.listTasks()).toBe('#1 [pending] A\n#2 [pending] B\n#3 [pending] C');
  });

  it('the lapse is told at its deadline: onUpdate and onChange fire without any call', async () => {
    const updates: string[] = [];
    const changes: string[] = [];
    const tools = await listOf(['Parse'], {
      onUpdate: (list) =>
        updates.push(list.map((task) => `${task.status}:${(task as TaskItem).owner ?? ''}`).join(',')),
      onChange: (change) => changes.push(change.put.map((task) => task.status).join(',')),
    });
    await tools.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 1 });
    expect(updates.at(-1)).toBe('in_progress:alice');
    await expect.poll(() => updates.at(-1), { timeout: 20_000, interval: 20 }).toBe('pending:');
    expect(changes.at(-1)).toBe('pending');
  }, 30_000);

  it('a lapse that cannot be written (the store is down) is tried again each second, not in a loop', async () => {
    const inner = memoryTaskStore();
    let down = false;
    let attempts = 0;
    const store: TaskStore = {
      ...inner,
      transact: (seq, fn) => {
        if (!down) return inner.transact(seq, fn);
        attempts += 1;
        return Promise.reject(new Error('the database is down'));
      },
    };
    const tools = await listOf(['Parse'], { store });
    await tools.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 1 });
    down = true;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    // About one try a second after the deadline (at most a handful, on any machine), not thousands.
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThanOrEqual(5);
    expect(tools.listTasks()).toBe('#1 [pending] Parse');
  }, 30_000);

  it('a live lease fences every other session: a claim under the same name, an update, a completion, a delete', async () => {
    let now = Date.UTC(2026, 11, 1, 10, 0, 0);
    const store = memoryTaskStore();
    const holder = await listOf(['Parse'], { store, session: 'holder', now: () => now });
    const impostor = new TaskTools({ store, session: 'impostor', now: () => now });
    expect((await holder.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 600 })).text).toBe(
      'Claimed task #1: Parse',
    );
    expect((await impostor.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 600 })).text).toBe(
      "Task #1 is already claimed by alice under another session's lease, until 2026-12-01T10:10:00Z",
    );
    expect((await impostor.claimTask({ taskId: '1', owner: 'bob' })).text).toBe('Task #1 is already claimed by alice');
    const refusal =
      "Error: task #1 is claimed by alice under another session's lease until 2026-12-01T10:10:00Z; only that session can change it until then (claim it with task_claim once the lease has ended)";
    for (const update of [
      { taskId: '1', status: 'completed' },
      { taskId: '1', subject: 'Mine now' },
      { taskId: '1', owner: 'bob' },
      { taskId: '1', status: 'deleted' },
    ]) {
      expect(await impostor.updateTask(update)).toEqual({ text: refusal, isError: true });
    }
    expect((await store.load()).tasks[0]).toMatchObject({ subject: 'Parse', owner: 'alice', status: 'in_progress' });
    // The holder goes on; its lease is renewed by its update.
    now += 300_000;
    expect((await holder.updateTask({ taskId: '1', subject: 'Parse it' })).text).toBe('Updated task #1 subject');
    now += 400_000;
    expect((await impostor.updateTask({ taskId: '1', status: 'completed' })).isError).toBe(true);
    // Once the lease has run out, another session may take the task.
    now += 300_000;
    expect((await impostor.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 60 })).text).toBe(
      'Claimed task #1: Parse it',
    );
    expect((await holder.updateTask({ taskId: '1', status: 'completed' })).text).toBe(
      'Error: your claim on task #1 expired (its lease ran out before this session touched it again); claim it again with task_claim',
    );
  });

  it('20 agents racing for 10 tasks through one store: every task claimed exactly once', async () => {
    const store = memoryTaskStore();
    await listOf(
      Array.from({ length: 10 }, (_, i) => `T${i + 1}`),
      { store },
    );
    const agents = Array.from({ length: 20 }, (_, i) => new TaskTools({ store, session: `s${i}` }));
    const answers = await Promise.all(agents.map((agent, i) => agent.claimTask({ owner: `agent-${i}` })));
    const claimed = answers.map((a) => /^Claimed task #(\d+):/.exec(a.text)?.[1]).filter(Boolean);
    expect(new Set(claimed).size).toBe(10);
    expect(claimed).toHaveLength(10);
    expect(answers.filter((a) => a.text === 'No task is free to claim')).toHaveLength(10);
  });
});

describe.each(SDK_MAJORS)('task_claim over MCP (SDK v$major)', ({ TaskTools, connect, newServer }) => {
  afterEach(closeClients);

  // listOf with this major's TaskTools.
  async function listOf(subjects: string[], options: TaskToolsOptions = {}) {
    const tools = new TaskTools(options);
    for (const subject of subjects) await tools.createTask({ subject, description: '' });
    return tools;
  }

  it('a lapsed lease shows as pending and unowned to every reader at its deadline, though nothing else changed the list', async () => {
    let now = Date.UTC(2026, 11, 1, 10, 0, 0);
    const store = memoryTaskStore();
    const agent = await listOf(['Parse'], { store, session: 'agent-a', now: () => now });
    const reader = new TaskTools({ store, session: 'reader', now: () => now, structuredOutput: true });
    await agent.claimTask({ taskId: '1', owner: 'alice', leaseSeconds: 2 });
    await reader.syncTasks();
    expect(reader.listTasks()).toBe('#1 [in_progress] Parse (alice)');
    now += 2_000;
    // In memory, before any catch-up: the readers that answer at once.
    expect(reader.listTasks()).toBe('#1 [pending] Parse');
    expect(reader.getTask('1')).toContain('Status: pending');
    expect(reader.tasks()[0]).toMatchObject({ status: 'pending' });
    expect(reader.tasks()[0]).not.toHaveProperty('owner');
    expect(agent.listTasks()).toBe('#1 [pending] Parse');
    // Through MCP: task_list's and task_get's structured results too.
    const server = newServer();
    reader.register(server);
    const client = await connect(server);
    const listed = await client.callTool({ name: 'task_list', arguments: {} });
    expect(listed.structuredContent).toEqual({
      tasks: [
        {
          id: '1',
          content: 'Parse',
          status: 'pending',
          activeForm: 'Parse',
          description: '',
          blocks: [],
          blockedBy: [],
        },
      ],
    });
    expect((await client.callTool({ name: 'task_get', arguments: { taskId: '1' } })).structuredContent).toMatchObject({
      task: { status: 'pending' },
    });
    // The read wrote the release through: a holder that loads the store sees it as stored.
    const stored = (await store.load()).tasks[0];
    expect(stored?.status).toBe('pending');
    expect(stored?.owner).toBeUndefined();
    expect(stored?.claim).toBeUndefined();
    // And the next claim gets it.
    expect((await reader.claimTask({ owner: 'bob' })).text).toBe('Claimed task #1: Parse');
  });

  it('is a tool a client can call, mounted on purpose', async () => {
    const tools = await listOf(['A'], { structuredOutput: true });
    const server = newServer();
    tools.registerClaim(server);
    const client = await connect(server);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['task_claim']);
    const result = await client.callTool({ name: 'task_claim', arguments: { owner: 'zed' } });
    expect(result.structuredContent).toMatchObject({
      success: true,
      taskId: '1',
      task: { owner: 'zed', status: 'in_progress' },
    });
  });
});
