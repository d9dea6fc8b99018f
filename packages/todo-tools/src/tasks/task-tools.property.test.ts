import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type TaskItem, TaskTools } from '../index.js';

const id = fc.integer({ min: 1, max: 12 }).map(String);
const subject = fc.oneof(fc.constantFrom('A', 'B', 'Fix it', ' ', ''), fc.string({ maxLength: 8 }));

const create = fc
  .record(
    {
      subject,
      description: fc.string({ maxLength: 5 }),
      metadata: fc.dictionary(fc.constantFrom('a', 'b', '_internal'), fc.integer()),
    },
    { requiredKeys: ['subject', 'description'] },
  )
  .map((args) => ({ kind: 'create' as const, args }));

const update = fc
  .record(
    {
      taskId: id,
      subject,
      status: fc.constantFrom('pending', 'in_progress', 'completed', 'deleted', 'bogus'),
      addBlocks: fc.array(id, { maxLength: 3 }),
      addBlockedBy: fc.array(id, { maxLength: 3 }),
      owner: fc.constantFrom('', 'alice', 'bob'),
      metadata: fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.constant(null), fc.integer())),
    },
    { requiredKeys: ['taskId'] },
  )
  .map((args) => ({ kind: 'update' as const, args }));

const commands = fc.array(fc.oneof(create, update, update), { minLength: 5, maxLength: 40, size: 'max' });

type Command = { kind: 'create'; args: unknown } | { kind: 'update'; args: unknown };

/** A TaskTools object after `cmds`, in order. */
async function replayed(cmds: readonly Command[]): Promise<TaskTools> {
  const todos = new TaskTools();
  for (const cmd of cmds) {
    if (cmd.kind === 'create') await todos.createTask(cmd.args);
    else await todos.updateTask(cmd.args);
  }
  return todos;
}

/** Checks the invariants of a task list: mirrored links that name only tasks in the list, ids ascending. */
function checkInvariants(list: TaskItem[]) {
  const byId = new Map(list.map((t) => [t.id, t]));
  expect(byId.size).toBe(list.length);
  const numeric = list.map((t) => Number(t.id));
  expect(numeric).toEqual([...numeric].sort((a, b) => a - b));
  for (const task of list) {
    for (const other of task.blocks) {
      expect(byId.get(other)?.blockedBy).toContain(task.id);
    }
    for (const other of task.blockedBy) {
      expect(byId.get(other)?.blocks).toContain(task.id);
    }
    expect(task.blocks).not.toContain(task.id);
  }
}

// Each property runs its own numRuns; the budget is ~20x what it takes on a quiet machine.
describe('task tools over random call sequences (property)', { timeout: 120_000 }, () => {
  it('keep ids unique and never reused, links mirrored, rejected calls harmless, onUpdate once per change', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        let updates = 0;
        const todos = new TaskTools({ onUpdate: () => (updates += 1) });
        let highest = 0;
        for (const cmd of cmds) {
          const before = todos.tasks();
          const updatesBefore = updates;
          const answer = cmd.kind === 'create' ? await todos.createTask(cmd.args) : await todos.updateTask(cmd.args);
          const after = todos.tasks();
          const changed = !answer.isError && answer.text !== 'Task not found' && !answer.text.endsWith('(no changes)');
          if (answer.isError || !changed) expect(after).toEqual(before);
          expect(updates - updatesBefore).toBe(changed ? 1 : 0);
          const created = /^Task #(\d+) created successfully: /.exec(answer.text);
          if (created) {
            // A new id is above every id ever handed out.
            expect(Number(created[1])).toBe(highest + 1);
            highest += 1;
          }
          checkInvariants(after);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a task_list line exists for every visible task and names only open blockers', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const todos = await replayed(cmds);
        const list = todos.tasks();
        const visible = list.filter((t) => !(t.metadata && '_internal' in t.metadata));
        const text = todos.listTasks();
        if (visible.length === 0) expect(text).toBe('No tasks found');
        else expect(text.split('\n')).toHaveLength(visible.length);
        const status = new Map(list.map((t) => [t.id, t.status]));
        for (const task of visible) {
          const open = task.blockedBy.filter((b) => status.get(b) !== 'completed');
          const line = text.split('\n').find((l) => l.startsWith(`#${task.id} [`));
          expect(line).toBeDefined();
          if (open.length) expect(line?.endsWith(`[blocked by ${open.map((b) => `#${b}`).join(', ')}]`)).toBe(true);
          else expect(line).not.toContain('[blocked by');
        }
      }),
      { numRuns: 100 },
    );
  });

  it('restoreTasks(tasks()) reproduces the list and the next id', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const todos = await replayed(cmds);
        const copy = new TaskTools();
        copy.restoreTasks(todos.tasks());
        expect(copy.tasks()).toEqual(todos.tasks());
        expect(copy.listTasks()).toBe(todos.listTasks());
      }),
      { numRuns: 100 },
    );
  });
});
