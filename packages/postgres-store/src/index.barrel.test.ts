// The public surface is intentional: every name the package exports is one its README documents,
// and every declaration its built index.d.ts exports (read as a user's compiler reads it) is pinned
// here. A new export or type fails this test until it is added here on purpose (and to the README).
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as api from './index.js';

describeExports(api, ['DatabaseError', 'ListIdError', 'openPostgresLists']);

describeDeclaredExports(new URL('../dist/index.d.ts', import.meta.url), [
  'class DatabaseError',
  'class ListIdError',
  'function openPostgresLists',
  'interface PostgresList',
  'interface PostgresLists',
  'interface PostgresListsOptions',
]);
