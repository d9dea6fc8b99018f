/**
 * The errors of @raider/tasks-registry, thrown for a caller's mistake. Each has a stable `code`,
 * and `isInstance` recognises one thrown by another copy of the package (where `instanceof`
 * would not).
 */

const MARKER = Symbol.for('@raider/tasks-registry/error');

const isMarked = (error: unknown, code: string): boolean =>
  error instanceof Error && (error as { [MARKER]?: string })[MARKER] === code;

/** An argument of the wrong type or shape (a missing id, an id in use, a text that is not a string). */
export class RegistryArgumentError extends TypeError {
  /** Stable code for programs. */
  readonly code = 'INVALID_ARGUMENT';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'INVALID_ARGUMENT';

  constructor(message: string) {
    super(message);
    this.name = 'RegistryArgumentError';
  }

  /** True for a RegistryArgumentError, from this copy of the package or another. */
  static isInstance(error: unknown): error is RegistryArgumentError {
    return isMarked(error, 'INVALID_ARGUMENT');
  }
}

/** A value outside what is allowed (an unknown status, a negative count). */
export class RegistryRangeError extends RangeError {
  /** Stable code for programs. */
  readonly code = 'OUT_OF_RANGE';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'OUT_OF_RANGE';

  constructor(message: string) {
    super(message);
    this.name = 'RegistryRangeError';
  }

  /** True for a RegistryRangeError, from this copy of the package or another. */
  static isInstance(error: unknown): error is RegistryRangeError {
    return isMarked(error, 'OUT_OF_RANGE');
  }
}
