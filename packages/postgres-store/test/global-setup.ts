// One PostgreSQL server for the whole run (each test file makes its own databases or lists in it).
import type { TestProject } from 'vitest/node';
import { startPostgres, type TestPostgres } from './postgres-server.js';

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
