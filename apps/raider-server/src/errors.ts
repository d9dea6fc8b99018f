/**
 * The errors of @raider/server. Each has a stable `code`, and `isInstance` recognises one thrown
 * by another copy of the package.
 */

import { codedErrors } from '@raider/kit';

// This package's coded error classes (a stable code, isInstance across copies of the package).
const coded = codedErrors('@raider/server');

/** A bad flag or value: what was wrong, what was expected, what was received. */
export class OptionsError extends coded(Error, 'BAD_OPTION', 'OptionsError') {}

/** Too many lists are shared in memory to open another (each is in use). */
export class SharedListLimitError extends coded(Error, 'TOO_MANY_SHARED_LISTS', 'SharedListLimitError') {}
