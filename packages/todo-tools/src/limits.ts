/**
 * Size limits of the task-list tools. Every limit is an option; the defaults are generous for a
 * model's working list and small enough that a runaway model cannot fill memory or context.
 */
export interface TaskListLimits {
  /** Most tasks a task list holds at once (task_create beyond it is an error). Default 1000. */
  maxTasks: number;
  /** Longest subject (and todo_write content), in characters. Default 500. */
  maxSubjectLength: number;
  /** Longest description, in characters. Default 10 000. */
  maxDescriptionLength: number;
  /** Longest activeForm, in characters. Default 500. */
  maxActiveFormLength: number;
  /** Longest owner, in characters. Default 200. */
  maxOwnerLength: number;
  /** Largest metadata record, as JSON text in characters (after an update's merge). Default 10 000. */
  maxMetadataSize: number;
  /**
   * Deepest nesting of metadata, in levels (the record itself is level 1; each array or object
   * inside adds one). Default 32: deep enough for any real use, far from what would exhaust a stack.
   */
  maxMetadataDepth: number;
  /** Most ids in one addBlocks or addBlockedBy. Default 100. */
  maxDependencies: number;
  /** Most items in one todo_write list. Default 200. */
  maxTodoItems: number;
}

/** The limits used where a caller sets none. */
export const DEFAULT_LIMITS: Readonly<TaskListLimits> = Object.freeze({
  maxTasks: 1000,
  maxSubjectLength: 500,
  maxDescriptionLength: 10_000,
  maxActiveFormLength: 500,
  maxOwnerLength: 200,
  maxMetadataSize: 10_000,
  maxMetadataDepth: 32,
  maxDependencies: 100,
  maxTodoItems: 200,
});

/**
 * `build` memoised per distinct set of limits: a tool's schemas are large objects, and every
 * conversation of a server (one per HTTP session) has the same limits, so they share one set.
 * At most 64 sets are kept (a program with more builds the rest each time).
 */
export function perLimits<T>(build: (limits: Readonly<TaskListLimits>) => T): (limits: Readonly<TaskListLimits>) => T {
  const built = new Map<string, T>();
  return (limits) => {
    const key = JSON.stringify(limits);
    let value = built.get(key);
    if (value === undefined) {
      value = build(limits);
      if (built.size < 64) built.set(key, value);
    }
    return value;
  };
}
