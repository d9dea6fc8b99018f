// A real PostgreSQL for the tests that keep lists in a database: RAIDER_TEST_DATABASE_URL when set,
// else an embedded PostgreSQL 18 from the npm registry (the helper the postgres-store package's
// tests use, so both start it the same way).
import type { TestProject } from 'vitest/node';
import { startPostgres, type TestPostgres } from '../../../packages/postgres-store/test/postgres-server.js';

let server: TestPostgres | undefined;

export async function setup(project: TestProject): Promise<void> {
  const given = process.env.RAIDER_TEST_DATABASE_URL;
  if (given) {
    project.provide('databaseUrl', given);
    return;
  }
  server = await startPostgres();
  project.provide('databaseUrl', server.url);
}

export async function teardown(): Promise<void> {
  await server?.destroy();
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
