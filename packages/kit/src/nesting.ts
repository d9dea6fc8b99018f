/**
 * How deep a value nests, judged without recursion: the one walk behind the metadata limits of
 * todo-tools (`maxMetadataDepth`, checked before anything is stored) and of file-store (a task
 * file's metadata, checked as it is read), so a hostile or hand-written value cannot overflow the
 * stack of whatever walks it next.
 */

/**
 * True when `value` nests arrays and objects more than `max` levels deep (a value that is not an
 * array or object is level 0; `{}` is level 1). Iterative and stops at the first level past `max`,
 * so any value, however deep, is judged without recursion and at the cost of what it reads.
 *
 * @example
 * nestsDeeperThan({ a: { b: 1 } }, 2) // false: two levels
 * nestsDeeperThan({ a: { b: [] } }, 2) // true: three
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [item, level] = stack.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    if (level > max) return true;
    for (const inner of Object.values(item)) {
      if (typeof inner === 'object' && inner !== null) stack.push([inner, level + 1]);
    }
  }
  return false;
}
