// Cost of the memory MessageStore: a send + take + done cycle costs the same whatever waits in
// other inboxes. Run with `pnpm --filter @raider/tasks-registry bench`.
import { bench, describe } from 'vitest';
import { memoryMessageStore } from './index.js';

/** A store with `others` messages waiting in 1 000-message inboxes of other agents. */
async function storeBeside(others: number) {
  const store = memoryMessageStore();
  for (let index = 0; index < others; index += 1) {
    await store.send({ to: `agent-${Math.floor(index / 1_000)}`, text: 'waiting', notification: false });
  }
  return store;
}

const CYCLES = 10_000;

describe('memoryMessageStore', async () => {
  const alone = await storeBeside(0);
  const crowded = await storeBeside(100_000);
  for (const [name, store] of [
    ['alone', alone],
    ['beside 100 000 messages in other inboxes', crowded],
  ] as const) {
    bench(
      `${CYCLES} send + take + done cycles, ${name}`,
      async () => {
        for (let index = 0; index < CYCLES; index += 1) {
          await store.send({ to: 'main', text: 'hello', notification: false });
          await (await store.take('main')).done();
        }
      },
      { iterations: 5, time: 0 },
    );
  }
});
