/**
 * The errors of @raider/tasks-registry, thrown for a caller's mistake. Each has a stable `code`,
 * and `isInstance` recognises one thrown by another copy of the package.
 */

const MARKER = Symbol.for('@raider/tasks-registry/error');

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

/** An argument of the wrong type or shape (a missing id, an id in use, a text that is not a string). */
export class RegistryArgumentError extends coded(TypeError, 'INVALID_ARGUMENT', 'RegistryArgumentError') {}

/** A value outside what is allowed (an unknown status). */
export class RegistryRangeError extends coded(RangeError, 'OUT_OF_RANGE', 'RegistryRangeError') {}
