import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PersistentVector } from './persistent-vector.js';

// Each property runs its own numRuns; the budget is ~20x what it takes on a quiet machine.
describe('PersistentVector', { timeout: 120_000 }, () => {
  it('behaves like an array under push and set, and old versions never change (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ push: fc.integer() }), fc.record({ set: fc.nat(), value: fc.integer() })), {
          maxLength: 300,
        }),
        (ops) => {
          let vec = PersistentVector.empty<number>();
          let model: number[] = [];
          const versions: [PersistentVector<number>, number[]][] = [];
          for (const op of ops) {
            if ('push' in op) {
              vec = vec.push(op.push);
              model = [...model, op.push];
            } else if (model.length) {
              const index = op.set % model.length;
              vec = vec.set(index, op.value);
              model = model.map((v, i) => (i === index ? op.value : v));
            }
            versions.push([vec, model]);
          }
          for (const [version, expected] of versions) {
            expect(version.size).toBe(expected.length);
            expect(version.toArray()).toEqual(expected);
            // Each version, old ones included, hands out its own values.
            expect(version.frozenArray()).toEqual(expected);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('grows past several trie levels', () => {
    let vec = PersistentVector.empty<number>();
    const size = 32 ** 3 + 5;
    for (let i = 0; i < size; i += 1) vec = vec.push(i);
    expect(vec.size).toBe(size);
    expect(vec.get(0)).toBe(0);
    expect(vec.get(32 ** 2)).toBe(32 ** 2);
    expect(vec.get(size - 1)).toBe(size - 1);
    const changed = vec.set(30_000, -1);
    expect(changed.get(30_000)).toBe(-1);
    expect(vec.get(30_000)).toBe(30_000);
    expect(changed.toArray().length).toBe(size);
  });

  it('hands out one frozen array per vector', () => {
    const vec = PersistentVector.empty<number>().push(1).push(2);
    const array = vec.frozenArray();
    expect(array).toEqual([1, 2]);
    expect(Object.isFrozen(array)).toBe(true);
    expect(vec.frozenArray()).toBe(array);
    expect(vec.toArray()).not.toBe(array);
    const next = vec.set(0, 9);
    expect(next.frozenArray()).toEqual([9, 2]);
    expect(vec.frozenArray()).toEqual([1, 2]);
  });
});
