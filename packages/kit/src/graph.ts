/**
 * The one cycle walk of the raider packages, over a dependency graph given as a function from a
 * node to the nodes it points at (a task to the tasks it waits on). Both walks are iterative, with
 * a stack of their own, so a chain of 100 000 tasks does not overflow the call stack, and each
 * visits a node once.
 */

/**
 * True when `target` is reached from any of `starts` along `next`, in zero or more steps (a start
 * that is `target` counts). Visits only what the starts reach. Adding an edge from `target` to a
 * start closes a cycle exactly when this is true.
 *
 * @example reaches(['3'], '1', (id) => waitsOn(id)) // true when #3 already waits, through others, on #1
 */
export function reaches<T>(starts: Iterable<T>, target: T, next: (node: T) => Iterable<T>): boolean {
  const seen = new Set<T>();
  const stack = [...starts];
  while (stack.length) {
    const node = stack.pop() as T;
    if (node === target) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const after of next(node)) if (!seen.has(after)) stack.push(after);
  }
  return false;
}

/** A node being walked (on the current path) or walked already. */
const OPEN = 1;
const DONE = 2;

/**
 * True when the graph of `nodes` along `next` has a cycle (a node that reaches itself, a node that
 * points at itself included). Three-colour depth-first search from each node not walked yet; a
 * node `next` names outside `nodes` is walked too.
 */
export function hasCycle<T>(nodes: Iterable<T>, next: (node: T) => Iterable<T>): boolean {
  const state = new Map<T, typeof OPEN | typeof DONE>();
  for (const root of nodes) {
    if (state.has(root)) continue;
    state.set(root, OPEN);
    const stack: [T, Iterator<T>][] = [[root, next(root)[Symbol.iterator]()]];
    while (stack.length) {
      const [node, afters] = stack[stack.length - 1] as [T, Iterator<T>];
      const step = afters.next();
      if (step.done) {
        state.set(node, DONE);
        stack.pop();
        continue;
      }
      const seen = state.get(step.value);
      if (seen === OPEN) return true;
      if (seen === undefined) {
        state.set(step.value, OPEN);
        stack.push([step.value, next(step.value)[Symbol.iterator]()]);
      }
    }
  }
  return false;
}
