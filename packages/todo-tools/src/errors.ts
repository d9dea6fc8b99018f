/**
 * The errors of @raider/todo-tools, thrown for a caller's mistake. Each has a stable `code`, and
 * `isInstance` recognises one thrown by another copy of the package.
 */

const MARKER = Symbol.for('@raider/todo-tools/error');

/**
 * A class of this package's errors: `Base` (Error, TypeError, RangeError) with a stable `code`, a
 * `name`, and a static `isInstance` that recognises one thrown by another copy of the package
 * (where `instanceof` would not): it checks a marker, not the class.
 */
// biome-ignore lint/suspicious/noExplicitAny: a mixin's base must take any arguments (TypeScript's rule for mixins).
type ErrorClass = new (...args: any[]) => Error;

function coded<Code extends string, Base extends ErrorClass>(base: Base, code: Code, name: string) {
  return class extends base {
    /** Stable code for programs. */
    readonly code: Code = code;
    /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
    readonly [MARKER]: string = code;

    // biome-ignore lint/suspicious/noExplicitAny: a mixin's constructor takes any arguments (TypeScript's rule).
    constructor(...args: any[]) {
      super(...args);
      this.name = name;
    }

    /** True for an error of this class, from this copy of the package or another. */
    static isInstance<T>(this: abstract new (...args: never[]) => T, error: unknown): error is T {
      return error instanceof Error && (error as { [MARKER]?: string })[MARKER] === code;
    }
  };
}

/** Thrown by `check` for a list todo_write refuses; names the first wrong item. */
export class TodoListError extends coded(Error, 'INVALID_TODO_LIST', 'TodoListError') {
  /** Index of the first wrong item, or undefined when the list itself is wrong. */
  readonly index: number | undefined;

  constructor(message: string, index: number | undefined) {
    super(message);
    this.index = index;
  }
}

/**
 * A list or snapshot that cannot be taken over (`restoreTasks`, `restore`, a snapshot option, a
 * stored list): it says what is wrong; nothing is changed. A TypeError.
 */
export class InvalidListError extends coded(TypeError, 'INVALID_LIST', 'InvalidListError') {}

/** An option of the wrong shape (guidance that is not text). A TypeError. */
export class InvalidOptionError extends coded(TypeError, 'INVALID_OPTION', 'InvalidOptionError') {}
