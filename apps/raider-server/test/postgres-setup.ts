// A real PostgreSQL for the tests that keep lists in a database: the postgres-store package's own
// global setup (RAIDER_TEST_DATABASE_URL when set, else an embedded PostgreSQL 18 from the npm
// registry), so both start it the same way.
export { setup, teardown } from '../../../packages/postgres-store/test/global-setup.js';
