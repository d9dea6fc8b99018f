/**
 * The coded error classes of the raider packages. Each package makes its own classes with
 * `codedErrors('<package name>')`; this module is bundled into the package's dist at build time
 * (tsup `noExternal`), so no published package depends on it.
 */

// One registry-wide symbol: a thrown error carries `<package>:<code>` under it, so a check needs
// no shared class (two copies of a package in one program still recognise each other's errors).
// It keeps the kit's first name (@raider/coded-error): a mark is read by every copy, so it never changes.
const MARKER = Symbol.for('@raider/coded-error');

// biome-ignore lint/suspicious/noExplicitAny: a mixin's base must take any arguments (TypeScript's rule for mixins).
type ErrorClass = new (...args: any[]) => Error;

/**
 * The mark an error of `packageName` with `code` carries; what `isInstance` compares.
 *
 * @example errorMark('@raider/todo-tools', 'INVALID_TODO_LIST') // '@raider/todo-tools:INVALID_TODO_LIST'
 */
export function errorMark(packageName: string, code: string): string {
  return `${packageName}:${code}`;
}

/**
 * Marks `error` as one of `packageName`'s with `code`, as a class made by `codedErrors` does.
 * For tests that stand in for another copy of a package.
 */
export function markError<E extends Error>(error: E, packageName: string, code: string): E {
  return Object.assign(error, { [MARKER]: errorMark(packageName, code) });
}

/**
 * Returns `coded(Base, code, name)`, which makes a class of `packageName`'s errors: `Base` (Error,
 * TypeError, RangeError …) with a stable `code`, a `name`, and a static `isInstance` that
 * recognises an error of that class thrown by any copy of the package (where `instanceof` would
 * not): it checks a mark, not the class.
 *
 * @example
 * const coded = codedErrors('@raider/tasks-registry');
 * export class RegistryRangeError extends coded(RangeError, 'OUT_OF_RANGE', 'RegistryRangeError') {}
 */
export function codedErrors(packageName: string) {
  return function coded<Code extends string, Base extends ErrorClass>(base: Base, code: Code, name: string) {
    const mark = errorMark(packageName, code);
    return class extends base {
      /** Stable code for programs. */
      readonly code: Code = code;

      // biome-ignore lint/suspicious/noExplicitAny: a mixin's constructor takes any arguments (TypeScript's rule).
      constructor(...args: any[]) {
        super(...args);
        this.name = name;
        // The mark is set, not declared, so it stays out of the package's published types.
        markError(this, packageName, code);
      }

      /** True for an error of this class, from this copy of the package or another. */
      static isInstance<T>(this: abstract new (...args: never[]) => T, error: unknown): error is T {
        return error instanceof Error && (error as { [MARKER]?: string })[MARKER] === mark;
      }
    };
  };
}
