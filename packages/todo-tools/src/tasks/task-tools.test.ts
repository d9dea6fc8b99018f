import { describe, expect, it, vi } from 'vitest';
import { type TaskItem, TaskTools } from '../index.js';
import { closeClients, SDK_MAJORS } from '../testing/sdk-majors.js';

async function withTasks(subjects: string[], options = {}) {
  const todos = new TaskTools(options);
  for (const subject of subjects) await todos.createTask({ subject, description: `about ${subject}` });
  return todos;
}

describe('task_create', () => {
  it('creates a pending task with the next id and answers as Claude Code', async () => {
    const todos = new TaskTools();
    expect(await todos.createTask({ subject: 'Fix login bug', description: 'The form 500s' })).toEqual({
      text: 'Task #1 created successfully: Fix login bug',
      isError: false,
    });
    expect(await todos.createTask({ subject: 'Run the tests', description: '' })).toEqual({
      text: 'Task #2 created successfully: Run the tests',
      isError: false,
    });
    expect(todos.tasks()).toEqual([
      {
        id: '1',
        content: 'Fix login bug',
        status: 'pending',
        activeForm: 'Fix login bug',
        description: 'The form 500s',
        blocks: [],
        blockedBy: [],
      },
      {
        id: '2',
        content: 'Run the tests',
        status: 'pending',
        activeForm: 'Run the tests',
        description: '',
        blocks: [],
        blockedBy: [],
      },
    ]);
  });

  it('stores metadata as given, as Claude Code does: null values and an empty record kept', async () => {
    const todos = new TaskTools();
    await todos.createTask({ subject: 'a', description: '', metadata: { keep: null, n: 1 } });
    await todos.createTask({ subject: 'b', description: '', metadata: {} });
    expect(todos.tasks().map((t) => t.metadata)).toEqual([{ keep: null, n: 1 }, {}]);
    // An update merges: null removes a key; an emptied record goes.
    await todos.updateTask({ taskId: '1', metadata: { keep: null, n: null } });
    expect(todos.tasks()[0]).not.toHaveProperty('metadata');
  });

  it('keeps a "__proto__" metadata key as a key (as Claude Code does), on create and update, and pollutes nothing', async () => {
    const todos = new TaskTools();
    // As a model's arguments arrive: JSON, where "__proto__" is an ordinary key.
    await todos.createTask(
      JSON.parse('{"subject":"a","description":"","metadata":{"__proto__":{"admin":true},"n":1}}'),
    );
    expect(JSON.stringify(todos.tasks()[0]?.metadata)).toBe('{"__proto__":{"admin":true},"n":1}');
    await todos.updateTask(JSON.parse('{"taskId":"1","metadata":{"__proto__":{"admin":false}}}'));
    expect(JSON.stringify(todos.tasks()[0]?.metadata)).toBe('{"__proto__":{"admin":false},"n":1}');
    expect(Object.getPrototypeOf(todos.tasks()[0]?.metadata)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    await todos.updateTask(JSON.parse('{"taskId":"1","metadata":{"__proto__":null}}'));
    expect(JSON.stringify(todos.tasks()[0]?.metadata)).toBe('{"n":1}');
  });

  it('keeps activeForm and metadata when given', async () => {
    const todos = new TaskTools();
    await todos.createTask({ subject: 'Deploy', description: 'd', activeForm: 'Deploying', metadata: { prio: 1 } });
    expect(todos.tasks()[0]).toMatchObject({ activeForm: 'Deploying', metadata: { prio: 1 } });
  });

  it('rejects unknown keys, a missing or blank subject and a missing description, changing nothing', async () => {
    const todos = new TaskTools();
    const cases: [unknown, string][] = [
      [{ subject: 'a', description: 'b', owner: 'x' }, 'unknown argument "owner"'],
      [{}, 'subject: expected a string, received nothing; description: expected a string, received nothing'],
      [{ subject: '  ', description: 'b' }, 'subject: expected a non-empty text, received "  "'],
      [{ subject: 'a', description: 3 }, 'description: expected a string, received 3'],
      [{ subject: 7, description: 'b' }, 'subject: expected a string, received 7'],
      [
        { subject: 'a', description: 'b', metadata: [] },
        'metadata: expected an object of keys and values, received []',
      ],
      ['subject', 'expected an object of arguments, received "subject"'],
    ];
    for (const [args, message] of cases) {
      const answer = await todos.createTask(args);
      expect(answer.isError).toBe(true);
      expect(answer.text).toBe(`Error: ${message}`);
    }
    expect(todos.tasks()).toEqual([]);
    expect((await todos.createTask({ subject: 'a', description: 'b' })).text).toBe('Task #1 created successfully: a');
  });

  it('enforces the limits with errors that name the limit and what was received', async () => {
    const todos = new TaskTools({ limits: { maxTasks: 2, maxSubjectLength: 10, maxMetadataSize: 20 } });
    expect((await todos.createTask({ subject: 'x'.repeat(11), description: '' })).text).toContain(
      'Error: subject: expected at most 10 characters, received 11 characters',
    );
    expect(await todos.createTask({ subject: 'a', description: '', metadata: { k: 'x'.repeat(30) } })).toEqual({
      text: 'Error: metadata: expected at most 20 characters as JSON, received 38 characters',
      isError: true,
    });
    await todos.createTask({ subject: 'a', description: '' });
    await todos.createTask({ subject: 'b', description: '' });
    const third = await todos.createTask({ subject: 'c', description: '' });
    expect(third).toEqual({
      text: 'Error: the list already holds 2 tasks, the most it takes (maxTasks 2); complete and delete tasks first',
      isError: true,
    });
    expect(todos.tasks().map((t) => t.id)).toEqual(['1', '2']);
  });
});

describe('task_update', () => {
  it('answers with the changed fields in Claude Code order', async () => {
    const todos = await withTasks(['A', 'B', 'C']);
    expect(
      await todos.updateTask({
        taskId: '1',
        status: 'in_progress',
        addBlockedBy: ['2'],
        addBlocks: ['3'],
        metadata: { k: 1 },
        owner: 'alice',
        activeForm: 'Doing A',
        description: 'new',
        subject: 'A2',
      }),
    ).toEqual({
      text: 'Updated task #1 subject, description, activeForm, owner, metadata, status, blocks, blockedBy',
      isError: false,
    });
  });

  it('counts a field only when given and different; metadata whenever given', async () => {
    const todos = await withTasks(['A']);
    await todos.updateTask({ taskId: '1', owner: 'bob', metadata: { a: 1 } });
    expect((await todos.updateTask({ taskId: '1', subject: 'A', status: 'pending', owner: 'bob' })).text).toBe(
      'Updated task #1 (no changes)',
    );
    expect((await todos.updateTask({ taskId: '1', subject: 'A', metadata: { a: 1 } })).text).toBe(
      'Updated task #1 metadata',
    );
    expect((await todos.updateTask({ taskId: '1', status: 'completed' })).text).toBe('Updated task #1 status');
    expect((await todos.updateTask({ taskId: '1', status: 'completed' })).text).toBe('Updated task #1 (no changes)');
  });

  it('activeForm counts as changed when it differs from the stored one', async () => {
    const todos = await withTasks(['A']);
    expect((await todos.updateTask({ taskId: '1', activeForm: 'Doing A' })).text).toBe('Updated task #1 activeForm');
    expect((await todos.updateTask({ taskId: '1', activeForm: 'Doing A' })).text).toBe('Updated task #1 (no changes)');
  });

  it('merges metadata; a key set to null goes; an emptied record drops the field', async () => {
    const todos = await withTasks(['A']);
    await todos.updateTask({ taskId: '1', metadata: { a: 1, b: { deep: true } } });
    await todos.updateTask({ taskId: '1', metadata: { b: null, c: 'x' } });
    expect(todos.tasks()[0]?.metadata).toEqual({ a: 1, c: 'x' });
    await todos.updateTask({ taskId: '1', metadata: { a: null, c: null } });
    expect(todos.tasks()[0]).not.toHaveProperty('metadata');
  });

  it('sets and clears the owner', async () => {
    const todos = await withTasks(['A']);
    expect((await todos.updateTask({ taskId: '1', owner: 'alice' })).text).toBe('Updated task #1 owner');
    expect(todos.tasks()[0]?.owner).toBe('alice');
    expect((await todos.updateTask({ taskId: '1', owner: '' })).text).toBe('Updated task #1 owner');
    expect(todos.tasks()[0]).not.toHaveProperty('owner');
  });

  it('addBlocks and addBlockedBy write both directions and skip ids already present', async () => {
    const todos = await withTasks(['A', 'B', 'C']);
    expect((await todos.updateTask({ taskId: '1', addBlocks: ['3'] })).text).toBe('Updated task #1 blocks');
    expect((await todos.updateTask({ taskId: '2', addBlockedBy: ['1'] })).text).toBe('Updated task #2 blockedBy');
    expect((await todos.updateTask({ taskId: '3', addBlockedBy: ['1'] })).text).toBe('Updated task #3 (no changes)');
    const [a, b, c] = todos.tasks() as [TaskItem, TaskItem, TaskItem];
    expect(a.blocks).toEqual(['3', '2']);
    expect(b.blockedBy).toEqual(['1']);
    expect(c.blockedBy).toEqual(['1']);
  });

  it('rejects dependencies on missing tasks or on itself, changing nothing', async () => {
    const todos = await withTasks(['A', 'B']);
    const before = todos.tasks();
    expect(await todos.updateTask({ taskId: '1', subject: 'X', addBlocks: ['2', '9'] })).toEqual({
      text: 'Error: addBlocks: expected ids of existing tasks, received "9" (there is no task #9)',
      isError: true,
    });
    expect(await todos.updateTask({ taskId: '1', addBlockedBy: ['1'] })).toEqual({
      text: 'Error: addBlockedBy: a task cannot depend on itself; expected ids of other tasks, received "1" on task #1',
      isError: true,
    });
    expect(todos.tasks()).toEqual(before);
  });

  it('deleted removes the task at once, from every other task too; other fields are not saved', async () => {
    const todos = await withTasks(['A', 'B', 'C']);
    await todos.updateTask({ taskId: '2', addBlockedBy: ['1'], addBlocks: ['3'] });
    expect(await todos.updateTask({ taskId: '2', status: 'deleted', subject: 'ignored' })).toEqual({
      text: 'Updated task #2 deleted',
      isError: false,
    });
    expect(todos.tasks()).toEqual([
      expect.objectContaining({ id: '1', blocks: [], blockedBy: [] }),
      expect.objectContaining({ id: '3', blocks: [], blockedBy: [] }),
    ]);
    expect(todos.getTask('2')).toBe('Task not found');
  });

  it('answers Task not found, not as an error, for an unknown id', async () => {
    const todos = await withTasks(['A']);
    expect(await todos.updateTask({ taskId: '7', status: 'completed' })).toEqual({
      text: 'Task not found',
      isError: false,
    });
    expect(await todos.updateTask({ taskId: 'abc', status: 'deleted' })).toEqual({
      text: 'Task not found',
      isError: false,
    });
  });

  it('rejects bad input with what was expected and received', async () => {
    const todos = await withTasks(['A']);
    const answer = await todos.updateTask({ taskId: '1', status: 'done' });
    expect(answer).toEqual({
      text: 'Error: status: expected one of pending, in_progress, completed, deleted, received "done"',
      isError: true,
    });
    expect((await todos.updateTask({ taskId: 1.5 })).text).toBe(
      'Error: taskId: expected a task id such as "1", received 1.5',
    );
    expect((await todos.updateTask({ taskId: '1', subject: '' })).text).toContain('expected a non-empty text');
  });
});

describe("Claude Code's repairs of a malformed call (models trained on it send these shapes)", () => {
  it('task_create takes title or name for subject, content for description, active_form, a task wrapper', async () => {
    const todos = new TaskTools();
    const calls: [Record<string, unknown>, string][] = [
      [{ title: 'From title', description: 'd' }, 'Task #1 created successfully: From title'],
      [{ name: 'From name', content: 'from content' }, 'Task #2 created successfully: From name'],
      [{ subject: 'Forms', description: '', active_form: 'Forming' }, 'Task #3 created successfully: Forms'],
      [{ task: { subject: 'Wrapped', description: 'in a task' } }, 'Task #4 created successfully: Wrapped'],
      [{ task: 'A string task is its description' }, 'Task #5 created successfully: A string task is its description'],
      // A missing description is the subject; a missing subject is cut from the description.
      [{ subject: 'Only a subject' }, 'Task #6 created successfully: Only a subject'],
      [
        { description: `Rewrite the parser so that every token carries its position ${'x'.repeat(40)}` },
        'Task #7 created successfully: Rewrite the parser so that every token carries its position',
      ],
    ];
    for (const [args, text] of calls) expect(await todos.createTask(args)).toEqual({ text, isError: false });
    const [first, second, third, fourth, fifth, sixth] = todos.tasks();
    expect(first).toMatchObject({ content: 'From title', description: 'd' });
    expect(second).toMatchObject({ content: 'From name', description: 'from content' });
    expect(third).toMatchObject({ activeForm: 'Forming' });
    expect(fourth).toMatchObject({ content: 'Wrapped', description: 'in a task' });
    expect(fifth).toMatchObject({ description: 'A string task is its description' });
    expect(sixth).toMatchObject({ content: 'Only a subject', description: 'Only a subject' });
  });

  it('a subject is cut from a long description as Claude Code cuts it: 80 characters, at the last space past the 40th', async () => {
    const todos = new TaskTools();
    const noSpace = 'y'.repeat(100);
    await todos.createTask({ description: noSpace });
    expect(todos.tasks()[0]?.content).toBe('y'.repeat(80));
    // A space before the 41st character is not a place to cut.
    const early = `short ${'z'.repeat(100)}`;
    await todos.createTask({ description: early });
    expect(todos.tasks()[1]?.content).toBe(early.slice(0, 80));
  });

  it('a list of tasks or an Agent call in task_create gets Claude Code’s steering text, and nothing is created', async () => {
    const todos = new TaskTools();
    expect(await todos.createTask({ tasks: [{ subject: 'a' }, { subject: 'b' }] })).toEqual({
      text: 'TaskCreate creates ONE task per call and has no `tasks` or `todos` parameter. Call TaskCreate once per task, passing `subject` (a brief title) and `description` (what needs to be done) as top-level string parameters.',
      isError: true,
    });
    expect((await todos.createTask({ todos: [] })).isError).toBe(true);
    expect(await todos.createTask({ prompt: 'Find the tests', subagent_type: 'general-purpose' })).toEqual({
      text: 'This call used Agent-tool parameters (`prompt`/`subagent_type`). TaskCreate adds an item to the task list and takes `subject` and `description` string parameters. To delegate work to a subagent, use the Agent tool instead.',
      isError: true,
    });
    expect(todos.tasks()).toEqual([]);
  });

  it('task_update takes id or task_id for taskId and active_form; task_update, task_get and task_claim take a numeric id', async () => {
    const todos = await withTasks(['A', 'B']);
    expect((await todos.updateTask({ id: '1', status: 'in_progress' })).text).toBe('Updated task #1 status');
    expect((await todos.updateTask({ task_id: 2, active_form: 'Bing' })).text).toBe('Updated task #2 activeForm');
    expect((await todos.updateTask({ taskId: 1, subject: 'A1' })).text).toBe('Updated task #1 subject');
    expect((await todos.claimTask({ taskId: 2, owner: 'bob' })).text).toBe('Claimed task #2: B');
    // As the MCP Inspector's CLI sends `--tool-arg taskId=1`, through each SDK major.
    for (const sdk of SDK_MAJORS) {
      const mounted = new sdk.TaskTools();
      mounted.restoreTasks(todos.tasks());
      const client = await sdk.connect(mounted.server);
      expect(await client.callTool({ name: 'task_get', arguments: { taskId: 1 } }), `SDK v${sdk.major}`).toEqual({
        content: [{ type: 'text', text: 'Task #1: A1\nStatus: in_progress\nDescription: about A' }],
      });
      await closeClients();
    }
    // Both the alias and the name: the alias is not taken, and is refused as unknown.
    expect((await todos.updateTask({ taskId: '1', id: '2' })).text).toBe('Error: unknown argument "id"');
  });
});

describe('ids', () => {
  it('are never reused, a deleted one included; clearTasks keeps counting', async () => {
    const todos = await withTasks(['A', 'B']);
    await todos.updateTask({ taskId: '2', status: 'deleted' });
    expect((await todos.createTask({ subject: 'C', description: '' })).text).toBe('Task #3 created successfully: C');
    todos.clearTasks();
    expect(todos.tasks()).toEqual([]);
    expect((await todos.createTask({ subject: 'D', description: '' })).text).toBe('Task #4 created successfully: D');
  });
});

describe('task_list', () => {
  it('answers No tasks found for an empty list', () => {
    expect(new TaskTools().listTasks()).toBe('No tasks found');
  });

  it('one line per task in id order, owner and only blockers not yet completed', async () => {
    const todos = await withTasks(['Design the API', 'Add auth endpoints', 'Write docs', 'Ship']);
    await todos.updateTask({ taskId: '2', owner: 'alice', addBlockedBy: ['1'] });
    await todos.updateTask({ taskId: '4', addBlockedBy: ['1', '2', '3'] });
    expect(todos.listTasks()).toBe(
      [
        '#1 [pending] Design the API',
        '#2 [pending] Add auth endpoints (alice) [blocked by #1]',
        '#3 [pending] Write docs',
        '#4 [pending] Ship [blocked by #1, #2, #3]',
      ].join('\n'),
    );
    await todos.updateTask({ taskId: '1', status: 'completed' });
    await todos.updateTask({ taskId: '3', status: 'in_progress' });
    expect(todos.listTasks()).toBe(
      [
        '#1 [completed] Design the API',
        '#2 [pending] Add auth endpoints (alice)',
        '#3 [in_progress] Write docs',
        '#4 [pending] Ship [blocked by #2, #3]',
      ].join('\n'),
    );
  });

  it('leaves out tasks whose metadata has _internal', async () => {
    const todos = await withTasks(['A']);
    await todos.createTask({ subject: 'hidden', description: '', metadata: { _internal: true } });
    await todos.createTask({ subject: 'also hidden', description: '', metadata: { _internal: false } });
    expect(todos.listTasks()).toBe('#1 [pending] A');
    await todos.updateTask({ taskId: '1', metadata: { _internal: 'x' } });
    expect(todos.listTasks()).toBe('No tasks found');
    expect(todos.getTask('2')).toContain('Task #2: hidden');
  });
});

describe('task_get', () => {
  it('answers the lines of the task, Blocked by and Blocks only when there are any', async () => {
    const todos = await withTasks(['A', 'B', 'C', 'D']);
    expect(todos.getTask('1')).toBe('Task #1: A\nStatus: pending\nDescription: about A');
    await todos.updateTask({ taskId: '2', addBlockedBy: ['1', '3'], addBlocks: ['4'] });
    expect(todos.getTask('2')).toBe(
      'Task #2: B\nStatus: pending\nDescription: about B\nBlocked by: #1, #3\nBlocks: #4',
    );
  });

  it('lists under Blocked by only the blockers not completed, as Claude Code 2.1.332 does; Blocks is not filtered', async () => {
    const todos = await withTasks(['A', 'B', 'C', 'D']);
    await todos.updateTask({ taskId: '2', addBlockedBy: ['1', '3'], addBlocks: ['4'] });
    await todos.updateTask({ taskId: '1', status: 'completed' });
    expect(todos.getTask('2')).toBe('Task #2: B\nStatus: pending\nDescription: about B\nBlocked by: #3\nBlocks: #4');
    await todos.updateTask({ taskId: '3', status: 'completed' });
    await todos.updateTask({ taskId: '4', status: 'completed' });
    expect(todos.getTask('2')).toBe('Task #2: B\nStatus: pending\nDescription: about B\nBlocks: #4');
  });

  it('answers Task not found for an unknown id', () => {
    expect(new TaskTools().getTask('1')).toBe('Task not found');
  });
});

describe('onUpdate', () => {
  it('is called once per changing call with the list, never for calls that change nothing', async () => {
    const onUpdate = vi.fn();
    const todos = new TaskTools({ onUpdate });
    await todos.createTask({ subject: 'A', description: '' });
    expect(onUpdate).toHaveBeenCalledTimes(1);
    expect(onUpdate).toHaveBeenLastCalledWith([expect.objectContaining({ id: '1', content: 'A' })]);
    await todos.updateTask({ taskId: '1', status: 'pending' });
    await todos.updateTask({ taskId: '9', status: 'completed' });
    await todos.updateTask({ taskId: '1', status: 'bogus' });
    await todos.createTask({ subject: '' });
    todos.listTasks();
    todos.getTask('1');
    expect(onUpdate).toHaveBeenCalledTimes(1);
    await todos.updateTask({ taskId: '1', status: 'deleted' });
    expect(onUpdate).toHaveBeenCalledTimes(2);
    expect(onUpdate).toHaveBeenLastCalledWith([]);
  });

  it('hands out copies: changing them does not change the list', async () => {
    let seen: TaskItem[] = [];
    const todos = new TaskTools({ onUpdate: (list) => (seen = list as TaskItem[]) });
    await todos.createTask({ subject: 'A', description: '', metadata: { k: { v: 1 } } });
    (seen[0] as TaskItem).content = 'changed';
    (seen[0]?.metadata?.k as { v: number }).v = 2;
    seen[0]?.blocks.push('9');
    expect(todos.tasks()[0]).toMatchObject({ content: 'A', metadata: { k: { v: 1 } }, blocks: [] });
  });
});

describe('beforeTask', () => {
  it('is asked before a task is created and before one is completed, with the task as it would be', async () => {
    const beforeTask = vi.fn(() => undefined);
    const todos = new TaskTools({ beforeTask });
    await todos.createTask({ subject: 'A', description: 'd' });
    expect(beforeTask).toHaveBeenLastCalledWith('TaskCreated', expect.objectContaining({ id: '1', content: 'A' }));
    await todos.updateTask({ taskId: '1', status: 'in_progress' });
    expect(beforeTask).toHaveBeenCalledTimes(1);
    await todos.updateTask({ taskId: '1', status: 'completed', subject: 'A!' });
    expect(beforeTask).toHaveBeenLastCalledWith(
      'TaskCompleted',
      expect.objectContaining({ id: '1', content: 'A!', status: 'completed' }),
    );
    await todos.updateTask({ taskId: '1', status: 'deleted' });
    expect(beforeTask).toHaveBeenCalledTimes(2);
  });

  it('a text refuses the call: it is the error result and nothing changes', async () => {
    const onUpdate = vi.fn();
    const todos = new TaskTools({
      onUpdate,
      beforeTask: async (event, item) => (item.content.startsWith('bad') ? `${event} hook feedback:\nno` : undefined),
    });
    expect(await todos.createTask({ subject: 'bad one', description: '' })).toEqual({
      text: 'TaskCreated hook feedback:\nno',
      isError: true,
    });
    expect(todos.tasks()).toEqual([]);
    // The refused create did not use up an id.
    expect((await todos.createTask({ subject: 'good', description: '' })).text).toBe(
      'Task #1 created successfully: good',
    );
    const before = todos.tasks();
    expect(await todos.updateTask({ taskId: '1', subject: 'bad now', status: 'completed' })).toEqual({
      text: 'TaskCompleted hook feedback:\nno',
      isError: true,
    });
    expect(todos.tasks()).toEqual(before);
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });

  it('a call interrupted while its TaskCompleted hook runs answers as Claude Code 2.1.332 does, and nothing is saved', async () => {
    let release: (verdict: undefined) => void = () => {};
    const todos = await withTasks(['A'], {
      beforeTask: (event: string) =>
        event === 'TaskCompleted' ? new Promise<undefined>((resolve) => (release = resolve)) : undefined,
    });
    const controller = new AbortController();
    const answer = todos.updateTask(
      { taskId: '1', status: 'completed', subject: 'Done?' },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await answer).toEqual({ text: 'Interrupted: the task was not changed.', isError: true });
    // The hook allows it afterwards: too late, the call is over.
    release(undefined);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(todos.listTasks()).toBe('#1 [pending] A');
    expect((await todos.updateTask({ taskId: '1', status: 'in_progress' })).text).toBe('Updated task #1 status');
  });

  it('a hook that throws refuses the call with its message', async () => {
    const todos = new TaskTools({
      beforeTask: () => {
        throw new Error('hook crashed');
      },
    });
    expect(await todos.createTask({ subject: 'A', description: '' })).toEqual({
      text: 'TaskCreated hook failed: hook crashed',
      isError: true,
    });
    expect(todos.tasks()).toEqual([]);
  });

  it('concurrent calls with a slow hook keep ids unique and the list consistent', async () => {
    const todos = new TaskTools({
      beforeTask: (_event, item) => new Promise((resolve) => setTimeout(() => resolve(undefined), Number(item.id) % 3)),
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => todos.createTask({ subject: `T${i}`, description: '' })),
    );
    expect(answers.map((a) => a.text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Task #${i + 1} created successfully: T${i}`),
    );
    expect(new Set(todos.tasks().map((t) => t.id)).size).toBe(20);
  });

  it('a list cleared while a hook runs is not written into', async () => {
    let release: () => void = () => {};
    const todos = new TaskTools({ beforeTask: () => new Promise<undefined>((r) => (release = () => r(undefined))) });
    const pending = todos.createTask({ subject: 'A', description: '' });
    await new Promise((r) => setTimeout(r, 0));
    todos.clearTasks();
    release();
    expect(await pending).toEqual({
      text: 'The task list was cleared or replaced while the TaskCreated hook ran; nothing was changed',
      isError: true,
    });
    expect(todos.tasks()).toEqual([]);
  });
});

describe('tasks, clearTasks and restoreTasks', () => {
  it('restoreTasks takes over a list, calls no hook, and the next id follows the highest', async () => {
    const onUpdate = vi.fn();
    const beforeTask = vi.fn(() => undefined);
    const source = await withTasks(['A', 'B', 'C']);
    await source.updateTask({ taskId: '3', addBlockedBy: ['1'], owner: 'o', metadata: { m: 1 } });
    await source.updateTask({ taskId: '2', status: 'deleted' });
    const saved = source.tasks();

    const todos = new TaskTools({ onUpdate, beforeTask });
    todos.restoreTasks(saved);
    expect(todos.tasks()).toEqual(saved);
    expect(onUpdate).not.toHaveBeenCalled();
    expect(beforeTask).not.toHaveBeenCalled();
    expect((await todos.createTask({ subject: 'D', description: '' })).text).toBe('Task #4 created successfully: D');
  });

  it('restoreTasks sorts by numeric id and mirrors links', () => {
    const todos = new TaskTools();
    const base = { status: 'pending' as const, description: '', activeForm: 'x', blockedBy: [] };
    todos.restoreTasks([
      { ...base, id: '10', content: 'ten', blocks: [] },
      { ...base, id: '2', content: 'two', blocks: ['10', '99'] },
    ]);
    expect(todos.tasks().map((t) => [t.id, t.blocks, t.blockedBy])).toEqual([
      ['2', ['10'], []],
      ['10', [], ['2']],
    ]);
  });

  it('restoreTasks refuses a malformed list and keeps the current one', async () => {
    const todos = await withTasks(['A']);
    const before = todos.tasks();
    expect(() => todos.restoreTasks([{ id: 'x' } as unknown as TaskItem])).toThrow(TypeError);
    expect(() => todos.restoreTasks([before[0] as TaskItem, before[0] as TaskItem])).toThrow('expected unique ids');
    expect(todos.tasks()).toEqual(before);
  });
});
