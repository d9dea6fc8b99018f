/**
 * The errors of @raider/server. Each has a stable `code`, and `isInstance` recognises one thrown
 * by another copy of the package.
 */

const MARKER = Symbol.for('@raider/server/error');

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

/** A bad flag or value: what was wrong, what was expected, what was received. */
export class OptionsError extends coded(Error, 'BAD_OPTION', 'OptionsError') {}

/** A list id that cannot name a file under the data dir. */
export class ListIdError extends coded(Error, 'BAD_LIST_ID', 'ListIdError') {}

/** A list file that cannot be read, parsed or written. Names the file and what is wrong. */
export class ListFileError extends coded(Error, 'BAD_LIST_FILE', 'ListFileError') {}

/** Too many lists are shared in memory to open another (each is in use). */
export class SharedListLimitError extends coded(Error, 'TOO_MANY_SHARED_LISTS', 'SharedListLimitError') {}
