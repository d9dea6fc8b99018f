/**
 * The errors of @raider/postgres-store. Each has a stable `code`, and `isInstance` recognises one
 * thrown by another copy of the package (where `instanceof` would not).
 */

import { codedErrors } from '@raider/coded-error';

// This package's coded error classes (a stable code, isInstance across copies of the package).
const coded = codedErrors('@raider/postgres-store');

/**
 * The database could not be reached or refused a statement: the message says which and that the
 * change (if any) was not made; the store reconnects by itself at the next call.
 */
export class DatabaseError extends coded(Error, 'DATABASE_UNAVAILABLE', 'DatabaseError') {}

/** A list id the store does not take (empty, or longer than 200 characters). */
export class ListIdError extends coded(TypeError, 'BAD_LIST_ID', 'ListIdError') {}
