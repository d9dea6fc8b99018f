/**
 * The errors of @raider/todo-tools, thrown for a caller's mistake. Each has a stable `code`, and
 * `isInstance` recognises one thrown by another copy of the package.
 */

import { codedErrors } from '@raider/kit';

// This package's coded error classes (a stable code, isInstance across copies of the package).
const coded = codedErrors('@raider/todo-tools');

/** Thrown by `check` for a list todo_write refuses; names the first wrong item. */
export class TodoWriteListError extends coded(Error, 'INVALID_TODO_LIST', 'TodoWriteListError') {
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
