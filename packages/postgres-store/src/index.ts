// The public API of @raider/postgres-store: name every export explicitly (no `export *`); what is
// not exported here is private. src/index.barrel.test.ts lists them: add a name there on purpose.
export { DatabaseError, ListIdError } from './errors.js';
export type { PostgresList, PostgresLists, PostgresListsOptions } from './postgres-lists.js';
export { openPostgresLists } from './postgres-lists.js';
