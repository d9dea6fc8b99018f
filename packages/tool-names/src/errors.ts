/**
 * The errors of @raider/tool-names. Each has a stable `code`, and `isInstance` recognises one
 * thrown by another copy of the package (where `instanceof` would not).
 */

const MARKER = Symbol.for('@raider/tool-names/error');

/** A caller's argument of the wrong type (a tool name that is not a string, arguments that are not an object). */
export class ToolNamesArgumentError extends TypeError {
  /** Stable code for programs. */
  readonly code = 'INVALID_ARGUMENT';
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = true;

  constructor(message: string) {
    super(message);
    this.name = 'ToolNamesArgumentError';
  }

  /** True for a ToolNamesArgumentError, from this copy of the package or another. */
  static isInstance(error: unknown): error is ToolNamesArgumentError {
    return error instanceof Error && (error as { [MARKER]?: boolean })[MARKER] === true;
  }
}
