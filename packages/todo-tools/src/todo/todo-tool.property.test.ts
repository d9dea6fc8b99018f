import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayTodo, TodoTool } from '../index.js';

// Mostly ids of tasks that exist in a short run, sometimes as strings, rarely wrong.
const id = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 6 },
  { arbitrary: fc.integer({ min: 1, max: 5 }).map(String), weight: 2 },
  { arbitrary: fc.constantFrom(0, 9, 'two', 1.5), weight: 1 },
);
const ids = fc.array(id, { minLength: 1, maxLength: 3 });
const status = fc.constantFrom('pending', 'in_progress', 'completed', 'deleted', 'done');

// Weighted so that short runs build dependency graphs worth checking (cycles attempted included).
const call = fc.oneof(
  { arbitrary: fc.record({ action: fc.constant('create'), subject: fc.constant('T') }), weight: 6 },
  { arbitrary: fc.record({ action: fc.constant('update'), id, addBlockedBy: ids }), weight: 8 },
  { arbitrary: fc.record({ action: fc.constant('update'), id, removeBlockedBy: ids }), weight: 2 },
  fc.record(
    { action: fc.constant('create'), subject: fc.constantFrom('A', 'B', ' ', 'C\nD'), blockedBy: ids },
    { requiredKeys: ['action'] },
  ),
  fc.record(
    {
      action: fc.constant('update'),
      id,
      status,
      subject: fc.constantFrom('X', ''),
      addBlockedBy: ids,
      removeBlockedBy: ids,
      metadata: fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.constant(null), fc.integer())),
      owner: fc.constantFrom('', 'o'),
    },
    { requiredKeys: ['action'] },
  ),
  fc.record({ action: fc.constant('update'), id, status }),
  fc.record({ action: fc.constant('update'), id, addBlockedBy: ids }),
  fc.record({ action: fc.constantFrom('get', 'delete'), id }, { requiredKeys: ['action'] }),
  fc.record({ action: fc.constant('list'), status, includeDeleted: fc.boolean() }, { requiredKeys: ['action'] }),
  fc.constant({ action: 'clear' }),
  fc.constant({ action: 'bogus' }),
);

/** True when the blockedBy graph of the tasks has no cycle (checked the slow, obvious way). */
function acyclic(tasks: readonly { id: number; blockedBy?: number[] }[]): boolean {
  const deps = new Map(tasks.map((t) => [t.id, t.blockedBy ?? []]));
  const reaches = (from: number, target: number, seen = new Set<number>()): boolean =>
    (deps.get(from) ?? []).some((d) => {
      if (d === target) return true;
      if (seen.has(d)) return false;
      seen.add(d);
      return reaches(d, target, seen);
    });
  return tasks.every((t) => !reaches(t.id, t.id));
}

// Each property runs its own numRuns; the budget is ~20x what it takes on a quiet machine.
describe('todo over random call sequences (property)', { timeout: 120_000 }, () => {
  it('rejections change nothing, ids stay unique, the graph acyclic, and every snapshot replays to the live state', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 5, maxLength: 40, size: 'max' }), (calls) => {
        const tool = new TodoTool();
        const transcript: unknown[] = [];
        for (const params of calls) {
          const before = structuredClone(tool.snapshot());
          const result = tool.call(params);
          transcript.push(result.details);
          if (result.details.error !== undefined) {
            expect(tool.snapshot()).toEqual(before);
            expect(result.content[0].text).toBe(`Error: ${result.details.error}`);
          }
          const { tasks, nextId } = tool.snapshot();
          const idsNow = tasks.map((t) => t.id);
          expect(new Set(idsNow).size).toBe(idsNow.length);
          expect(idsNow.every((i) => i < nextId)).toBe(true);
          expect(acyclic(tasks)).toBe(true);
          for (const task of tasks) {
            for (const dep of task.blockedBy ?? []) expect(idsNow).toContain(dep);
          }
          expect(replayTodo([result.details])).toEqual(tool.snapshot());
        }
        expect(replayTodo(transcript)).toEqual(tool.snapshot());
      }),
      { numRuns: 300 },
    );
  });

  it('get names as blocks exactly the tasks whose blockedBy holds the id', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 5, maxLength: 30, size: 'max' }), (calls) => {
        const tool = new TodoTool();
        for (const params of calls) tool.call(params);
        const { tasks } = tool.snapshot();
        for (const task of tasks) {
          const expected = tasks.filter((t) => t.blockedBy?.includes(task.id)).map((t) => `#${t.id}`);
          const line = tool
            .call({ action: 'get', id: task.id })
            .content[0].text.split('\n')
            .find((l) => l.startsWith('  blocks: '));
          expect(line).toBe(expected.length ? `  blocks: ${expected.join(', ')}` : undefined);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('maxTasks stops create with a clear error', () => {
    const tool = new TodoTool({ limits: { maxTasks: 2 } });
    tool.call({ action: 'create', subject: 'A' });
    tool.call({ action: 'create', subject: 'B' });
    expect(tool.call({ action: 'create', subject: 'C' }).details.error).toBe(
      'the list already holds 2 tasks, the most it takes (maxTasks 2); clear it or delete tasks first',
    );
  });
});
