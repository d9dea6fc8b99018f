// Another server, as far as PostgreSQL can tell: a process that opens the store (its TypeScript
// source, loaded through Vite's module runner), enters a change of a list, so it holds the list's
// row lock, says `holding` and waits there. The test freezes it with SIGSTOP and kills it.
// Usage: node lock-holder.mjs <connection string> <list id> <options as JSON>
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const [url, listId, options] = process.argv.slice(2);
const root = fileURLToPath(new URL('..', import.meta.url));
const { module } = await runnerImport(fileURLToPath(new URL('../src/index.ts', import.meta.url)), {
  configFile: false,
  logLevel: 'silent',
  root,
});
const lists = module.openPostgresLists({ connectionString: url, ...JSON.parse(options) });
await lists.list(listId).tasks.transact(0, () => {
  process.stdout.write('holding\n');
  // Never answers: the transaction stays open, as in a server frozen in the middle of a call.
  return new Promise(() => {});
});
