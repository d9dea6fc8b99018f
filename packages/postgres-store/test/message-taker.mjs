// Another server, as far as PostgreSQL can tell: a process that opens the store (its TypeScript
// source, loaded through Vite's module runner) and takes the messages of one agent until told to
// stop, marking each take done. It prints `ready` once its first take answered, then each take's
// texts as a JSON line; on `stop` (a line on stdin) it takes what is left, closes and exits.
// Usage: node message-taker.mjs <connection string> <list id> <agent>
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const [url, listId, agent] = process.argv.slice(2);
const root = fileURLToPath(new URL('..', import.meta.url));
const { module } = await runnerImport(fileURLToPath(new URL('../src/index.ts', import.meta.url)), {
  configFile: false,
  logLevel: 'silent',
  root,
});
const lists = module.openPostgresLists({ connectionString: url });
const store = lists.list(listId).messages;
let stopping = false;
let wake = () => {};
process.stdin.on('data', (chunk) => {
  if (String(chunk).includes('stop')) stopping = true;
  wake();
});
store.watch(agent, () => wake());
let ready = false;
for (;;) {
  const delivery = await store.take(agent, { max: 5, leaseMs: 60_000 });
  if (!ready) {
    ready = true;
    process.stdout.write('ready\n');
  }
  if (delivery.messages.length > 0) {
    process.stdout.write(`${JSON.stringify(delivery.messages.map((message) => message.text))}\n`);
    await delivery.done();
    continue;
  }
  if (stopping) break;
  // Woken by a NOTIFY of the inbox (or the heartbeat), or after a short pause at most.
  await new Promise((resolve) => {
    wake = resolve;
    setTimeout(resolve, 200);
  });
}
await lists.close();
process.exit(0);
