// The cycle walk: reaches (does adding an edge close a cycle?) and hasCycle (is there one?).
import { describe, expect, it } from 'vitest';
import { hasCycle, reaches } from './graph.js';

/** A graph as adjacency lists: `{ 1: [2] }` means 1 points at 2. */
const graph =
  (edges: Record<number, number[]>) =>
  (node: number): number[] =>
    edges[node] ?? [];

describe('reaches', () => {
  const next = graph({ 1: [2], 2: [3], 3: [], 4: [2, 5], 5: [4] });

  it('follows edges in zero or more steps from any start', () => {
    expect(reaches([1], 3, next)).toBe(true);
    expect(reaches([3], 1, next)).toBe(false);
    expect(reaches([3, 4], 5, next)).toBe(true);
    expect(reaches([2], 2, next)).toBe(true);
    expect(reaches([], 1, next)).toBe(false);
  });

  it('ends on a cycle that does not lead to the target, and visits each node once', () => {
    const visits = new Map<number, number>();
    const counted = (node: number) => {
      visits.set(node, (visits.get(node) ?? 0) + 1);
      return next(node);
    };
    expect(reaches([4], 1, counted)).toBe(false);
    expect([...visits.values()].every((count) => count === 1)).toBe(true);
  });

  it('walks a chain of 100 000 nodes without overflowing the stack', () => {
    const chain = (node: number) => (node < 100_000 ? [node + 1] : []);
    expect(reaches([1], 100_000, chain)).toBe(true);
  });
});

describe('hasCycle', () => {
  it('finds a cycle, a self-loop included, and none in a graph without one', () => {
    expect(hasCycle([1, 2, 3], graph({ 1: [2], 2: [3], 3: [1] }))).toBe(true);
    expect(hasCycle([1], graph({ 1: [1] }))).toBe(true);
    expect(hasCycle([1, 2, 3, 4], graph({ 1: [2, 3], 2: [4], 3: [4], 4: [] }))).toBe(false);
    expect(hasCycle([], graph({}))).toBe(false);
  });

  it('finds a cycle away from the first node, and walks nodes only next names', () => {
    expect(hasCycle([1, 5], graph({ 1: [2], 2: [], 5: [6], 6: [7], 7: [6] }))).toBe(true);
    expect(hasCycle([1], graph({ 1: [9], 9: [1] }))).toBe(true);
  });

  it('takes any iterable of neighbours (a Set of blockers)', () => {
    const sets = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['a'])],
    ]);
    expect(hasCycle(sets.keys(), (node) => sets.get(node) ?? [])).toBe(true);
  });

  it('walks a chain of 100 000 nodes without overflowing the stack', () => {
    const nodes = Array.from({ length: 100_000 }, (_, index) => index);
    expect(hasCycle(nodes, (node) => (node > 0 ? [node - 1] : []))).toBe(false);
    expect(hasCycle(nodes, (node) => [node > 0 ? node - 1 : 99_999])).toBe(true);
  });
});
