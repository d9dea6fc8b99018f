// Differential test: the `todo` family against the published @juicesharp/rpiv-todo reducer (its own
// code, from the npm registry), call by call over random sequences: same list, same next id, same
// verdict (accepted or the same error), same "Updated"/"No change". Where we differ on purpose
// (README, "Where we differ"), the generator leaves that input out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TodoTool } from '../index.js';

const id = fc.integer({ min: 1, max: 6 });
const ids = fc.array(id, { minLength: 1, maxLength: 3 });
// rpiv keeps an id given twice in create's blockedBy; we keep it once, on purpose ("Where we differ").
const distinctIds = fc.uniqueArray(id, { minLength: 1, maxLength: 3 });
// Texts as a model sends them, empty ones included (rpiv keeps an empty optional text set by update).
const text = fc.constantFrom('', 'a', 'Write the parser', 'b c');
const metadata = fc.dictionary(
  fc.constantFrom('a', 'b', 'c'),
  fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 3 }), fc.constant('x')),
  { maxKeys: 3 },
);
const status = fc.constantFrom('pending', 'in_progress', 'completed', 'deleted');

const optional = { requiredKeys: ['action'] as ['action'] };
const call = fc.oneof(
  {
    arbitrary: fc.record(
      {
        action: fc.constant('create'),
        subject: fc.constantFrom('T', 'U', ' '),
        description: text,
        activeForm: text,
        owner: text,
        metadata,
        blockedBy: distinctIds,
      },
      { requiredKeys: ['action', 'subject'] },
    ),
    weight: 5,
  },
  {
    arbitrary: fc.record(
      {
        action: fc.constant('update'),
        id,
        // A blank subject on update is refused on purpose (README, "Where we differ").
        subject: fc.constantFrom('S', 'T'),
        description: text,
        activeForm: text,
        owner: text,
        metadata,
        status,
        addBlockedBy: ids,
        removeBlockedBy: ids,
      },
      { requiredKeys: ['action', 'id'] },
    ),
    weight: 8,
  },
  { arbitrary: fc.record({ action: fc.constant('update'), id, status }), weight: 3 },
  { arbitrary: fc.record({ action: fc.constantFrom('get', 'delete'), id }, optional), weight: 2 },
  { arbitrary: fc.constant({ action: 'clear' }), weight: 1 },
);

/** rpiv-todo's state and reducer, as far as this test uses them. */
interface RpivState {
  tasks: unknown[];
  nextId: number;
}
type RpivOp = { kind: 'error'; message: string } | { kind: 'update'; changed: boolean } | { kind: string };
type Reducer = (state: RpivState, action: string, params: unknown) => { state: RpivState; op: RpivOp };

// Imported by a computed name so the type checker does not compile rpiv's sources under our
// stricter settings; Vite transforms them for the test (vitest.config.ts).
const REDUCER = '@juicesharp/rpiv-todo/state/state-reducer.ts';
const { applyTaskMutation } = (await import(/* @vite-ignore */ REDUCER)) as { applyTaskMutation: Reducer };

describe('the todo family against rpiv-todo 2.11 (differential)', { timeout: 120_000 }, () => {
  it('answers every call of a random sequence as rpiv-todo does', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 25 }), (calls) => {
        const ours = new TodoTool();
        let theirs: RpivState = { tasks: [], nextId: 1 };
        for (const params of calls) {
          const { action, ...rest } = params as { action: string } & Record<string, unknown>;
          const { state, op } = applyTaskMutation(theirs, action, rest);
          const result = ours.call(params);
          const expected = 'message' in op ? op.message : undefined;
          expect(result.details.error, JSON.stringify(params)).toBe(expected);
          if ('changed' in op) {
            const text = result.content[0]?.text ?? '';
            expect(text.startsWith('No change'), JSON.stringify(params)).toBe(!op.changed);
          }
          theirs = state;
          expect(JSON.parse(JSON.stringify(result.details.tasks))).toEqual(JSON.parse(JSON.stringify(state.tasks)));
          expect(result.details.nextId).toBe(state.nextId);
        }
      }),
      { numRuns: 600 },
    );
  });
});
