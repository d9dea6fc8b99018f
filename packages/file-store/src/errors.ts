/**
 * The errors of @raider/file-store. Each has a stable `code`, and `isInstance` recognises one
 * thrown by another copy of the package (where `instanceof` would not).
 */

import { codedErrors } from '@raider/kit';

// This package's coded error classes (a stable code, isInstance across copies of the package).
const coded = codedErrors('@raider/file-store');

/** A list id that cannot name a folder under the data dir (empty, `..`, a path separator, too long). */
export class ListIdError extends coded(TypeError, 'BAD_LIST_ID', 'ListIdError') {}

/**
 * A list folder or file that cannot be read, parsed or written. Names the file and what is wrong;
 * the file is left as it was, and a change that raised it was not made.
 */
export class ListFileError extends coded(Error, 'BAD_LIST_FILE', 'ListFileError') {}
