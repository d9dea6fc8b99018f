import { nestsDeeperThan } from '@raider/kit/nesting';

// How deep a value nests: the kit's one walk, shared with file-store (its importers here take it from this module).
export { nestsDeeperThan };

/**
 * Merges metadata key by key (shallow), as both families do: a key set to null goes, an emptied
 * record is dropped (undefined). Keys are defined as own properties, so "__proto__" stays a key.
 */
export function mergeMetadata(
  current: Record<string, unknown> | undefined,
  patch: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(merged).length ? merged : undefined;
}

/**
 * Metadata as a create call gives it, copied key by key (shallow): null values and an empty record
 * are kept, as rpiv-todo's create and Claude Code's TaskCreate store them. Keys are defined as own
 * properties, so "__proto__" stays a key.
 */
export function copyMetadata(given: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/**
 * The text saying which task of a stored list has metadata nested deeper than `max` levels, or
 * undefined when none has. Iterative: a list written before the limit existed (or by hand) is
 * refused with this text instead of exhausting the stack in whatever walks it next.
 */
export function tooDeeplyNested(tasks: unknown, max: number): string | undefined {
  if (!Array.isArray(tasks)) return undefined;
  for (const task of tasks as { id?: unknown; metadata?: unknown }[]) {
    if (nestsDeeperThan(task?.metadata, max)) {
      return `task #${String(task.id)}'s metadata nests deeper than ${max} levels; fix or remove it`;
    }
  }
  return undefined;
}
