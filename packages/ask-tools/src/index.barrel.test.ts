// The public surface of `.` is intentional: every name it exports, and every declaration its built
// index.d.ts exports, is one the README documents. The lists are written once for both entries
// (testing/entry-exports.ts); `./v2` is pinned the same way (v2/index.barrel.test.ts).
// A new export fails this test until it is added there on purpose (and to the README).
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as api from './index.js';
import { ENTRY_DECLARATIONS, ENTRY_NAMES } from './testing/entry-exports.js';

describeExports(api, ENTRY_NAMES);

// The `.` entry declares nothing beyond the shared list.
describeDeclaredExports(new URL('../dist/index.d.ts', import.meta.url), ENTRY_DECLARATIONS);
