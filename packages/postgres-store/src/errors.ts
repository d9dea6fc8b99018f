/**
 * The errors of @raider/postgres-store. Each has a stable `code`, and `isInstance` recognises one
 * thrown by another copy of the package (where `instanceof` would not).
 */

import { codedErrors } from '@raider/kit';

// This package's coded error classes (a stable code, isInstance across copies of the package).
const coded = codedErrors('@raider/postgres-store');

/**
 * The database could not be reached, refused a statement, or another server held the list too
 * long: the message says which, where (never with the password) and what became of the change.
 * The store reconnects by itself at the next call.
 *
 * `mayHaveBeenSaved` is `true` only when the store cannot tell whether the change was committed
 * (the connection was lost while its COMMIT was in flight): the change may be in the database, so
 * read the list before trying again. Otherwise it is `false` and nothing was changed (the
 * transaction rolled back, or never began). This is the `TaskStore` contract of
 * `@raider/todo-tools`, which answers such a failure as a change that may have been saved.
 */
export class DatabaseError extends coded(Error, 'DATABASE_UNAVAILABLE', 'DatabaseError') {
  /** True when the change may have been committed after all (see the class); false: nothing was changed. */
  readonly mayHaveBeenSaved: boolean;

  constructor(message: string, options: { mayHaveBeenSaved?: boolean; cause?: unknown } = {}) {
    super(message, ...(options.cause === undefined ? [] : [{ cause: options.cause }]));
    this.mayHaveBeenSaved = options.mayHaveBeenSaved ?? false;
  }
}

/** A list id the store does not take (empty, longer than 200 characters, or with U+0000, which PostgreSQL's text cannot hold). */
export class ListIdError extends coded(TypeError, 'BAD_LIST_ID', 'ListIdError') {}
