/**
 * The errors of @raider/server. Each has a stable `code`, and `isInstance` recognises one thrown
 * by another copy of the package (where `instanceof` would not).
 */

const MARKER = Symbol.for('@raider/server/error');

const isMarked = (error: unknown, code: string): boolean =>
  error instanceof Error && (error as { [MARKER]?: string })[MARKER] === code;

/** A bad flag or value: what was wrong, what was expected, what was received. */
export class OptionsError extends Error {
  readonly code = 'BAD_OPTION';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'BAD_OPTION';
  constructor(message: string) {
    super(message);
    this.name = 'OptionsError';
  }

  /** True for a OptionsError, from this copy of the package or another. */
  static isInstance(error: unknown): error is OptionsError {
    return isMarked(error, 'BAD_OPTION');
  }
}

/** A list id that cannot name a file under the data dir. */
export class ListIdError extends Error {
  readonly code = 'BAD_LIST_ID';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'BAD_LIST_ID';
  constructor(message: string) {
    super(message);
    this.name = 'ListIdError';
  }

  /** True for a ListIdError, from this copy of the package or another. */
  static isInstance(error: unknown): error is ListIdError {
    return isMarked(error, 'BAD_LIST_ID');
  }
}

/** A list file that cannot be read, parsed or written. Names the file and what is wrong. */
export class ListFileError extends Error {
  readonly code = 'BAD_LIST_FILE';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'BAD_LIST_FILE';
  constructor(message: string) {
    super(message);
    this.name = 'ListFileError';
  }

  /** True for a ListFileError, from this copy of the package or another. */
  static isInstance(error: unknown): error is ListFileError {
    return isMarked(error, 'BAD_LIST_FILE');
  }
}

/** Too many lists are shared in memory to open another (each is in use). */
export class SharedListLimitError extends Error {
  readonly code = 'TOO_MANY_SHARED_LISTS';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = 'TOO_MANY_SHARED_LISTS';
  constructor(message: string) {
    super(message);
    this.name = 'SharedListLimitError';
  }

  /** True for a SharedListLimitError, from this copy of the package or another. */
  static isInstance(error: unknown): error is SharedListLimitError {
    return isMarked(error, 'TOO_MANY_SHARED_LISTS');
  }
}
