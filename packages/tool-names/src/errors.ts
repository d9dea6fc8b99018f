/**
 * The errors of @raider/tool-names. Each has a stable `code`, and `isInstance` recognises one
 * thrown by another copy of the package (where `instanceof` would not).
 */

import { codedErrors } from '@raider/kit';

// This package's coded error classes (a stable code, isInstance across copies of the package).
const coded = codedErrors('@raider/tool-names');

/** A caller's argument of the wrong type (a tool name that is not a string, arguments that are not an object). */
export class ToolNamesArgumentError extends coded(TypeError, 'INVALID_ARGUMENT', 'ToolNamesArgumentError') {}
