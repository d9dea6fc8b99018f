// The lists a test file opens, each with its own pool as another server process would have:
// closed after the file (afterAll, registered when this is imported), or at once with
// closeOpened() (a test that stops the server under them).
import { afterAll, inject } from 'vitest';
import { openPostgresLists, type PostgresListsOptions } from '../src/index.js';

type Lists = ReturnType<typeof openPostgresLists>;
const opened: Lists[] = [];
afterAll(() => closeOpened());

/** openPostgresLists on the run's database (or `options.connectionString`), closed after the test file. */
export function openLists(options: Partial<PostgresListsOptions> = {}): Lists {
  const lists = openPostgresLists({ connectionString: inject('databaseUrl'), ...options });
  opened.push(lists);
  return lists;
}

/** Closes every list opened so far, oldest first. */
export async function closeOpened(): Promise<void> {
  for (const lists of opened.splice(0)) await lists.close();
}
