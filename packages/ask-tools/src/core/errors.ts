/**
 * The errors of @raider/ask-tools. Each has a stable `code`, and `isInstance` recognises one
 * thrown by another copy of the package (where `instanceof` would not).
 */
import type { AskFailure } from './outcomes.js';

const MARKER = Symbol.for('@raider/ask-tools/error');

/**
 * Thrown by an Asker for an outcome that is not an answer (say, the person declined). A plain
 * `undefined` from an Asker means the person gave no answer. An `aborted` error with a message
 * (`new AskError('aborted', 'the server is shutting down')`) says why the question was withdrawn.
 */
export class AskError extends Error {
  /** Stable code for programs: what happened to the question. */
  readonly code: AskFailure;
  /** Marks errors of this package, whichever copy of it threw them (see isInstance). */
  readonly [MARKER] = true;

  constructor(code: AskFailure, message?: string) {
    super(message ?? code);
    this.name = 'AskError';
    this.code = code;
  }

  /** True for an AskError, from this copy of the package or another (where `instanceof` fails). */
  static isInstance(error: unknown): error is AskError {
    return error instanceof Error && (error as { [MARKER]?: boolean })[MARKER] === true;
  }
}
