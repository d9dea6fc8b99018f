// The public surface of `./v2` is intentional, as the `.` entry's is (index.barrel.test.ts): the
// same names, and the same declarations in its built v2.d.ts but for what only v2 has (both lists
// written once, in testing/entry-exports.ts). A new export fails this test until it is added there
// on purpose (and to the README).
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import { ENTRY_DECLARATIONS, ENTRY_NAMES } from '../testing/entry-exports.js';
import * as api from './index.js';

describeExports(api, ENTRY_NAMES);

// Beside the shared declarations, the `./v2` entry's own: what its requestState codec signs.
describeDeclaredExports(new URL('../../dist/v2.d.ts', import.meta.url), [
  ...ENTRY_DECLARATIONS,
  'interface QuestionState',
]);
