/**
 * The errors of @raider/todo-tools, thrown for a caller's mistake. Each has a stable `code`, and
 * `isInstance` recognises one thrown by another copy of the package (where `instanceof` would not).
 */

const MARKER = Symbol.for('@raider/todo-tools/error');

const isMarked = (error: unknown, code: string): boolean =>
  error instanceof Error && (error as { [MARKER]?: string })[MARKER] === code;

/** Thrown by `check` for a list todo_write refuses; names the first wrong item. */
export class TodoListError extends Error {
  /** Stable code for programs. */
  readonly code = 'INVALID_TODO_LIST';
  /** Index of the first wrong item, or undefined when the list itself is wrong. */
  readonly index: number | undefined;
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'INVALID_TODO_LIST';

  constructor(message: string, index: number | undefined) {
    super(message);
    this.name = 'TodoListError';
    this.index = index;
  }

  /** True for a TodoListError, from this copy of the package or another. */
  static isInstance(error: unknown): error is TodoListError {
    return isMarked(error, 'INVALID_TODO_LIST');
  }
}

/**
 * A list or snapshot that cannot be taken over (`restoreTasks`, `restore`, a snapshot option, a
 * stored list): it says what is wrong; nothing is changed. A TypeError, as before it had a name.
 */
export class InvalidListError extends TypeError {
  /** Stable code for programs. */
  readonly code = 'INVALID_LIST';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'INVALID_LIST';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidListError';
  }

  /** True for an InvalidListError, from this copy of the package or another. */
  static isInstance(error: unknown): error is InvalidListError {
    return isMarked(error, 'INVALID_LIST');
  }
}

/** An option of the wrong shape (guidance that is not text). A TypeError. */
export class InvalidOptionError extends TypeError {
  /** Stable code for programs. */
  readonly code = 'INVALID_OPTION';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'INVALID_OPTION';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidOptionError';
  }

  /** True for an InvalidOptionError, from this copy of the package or another. */
  static isInstance(error: unknown): error is InvalidOptionError {
    return isMarked(error, 'INVALID_OPTION');
  }
}
