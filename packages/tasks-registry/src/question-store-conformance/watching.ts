/** The conformance group of watch: asks and settles heard on another handle, a stop, a bad listener. */
import { RegistryArgumentError } from '../errors.js';
import { outgoing, type QuestionSuiteTools, sleep } from './suite-context.js';

/** Asks and settles heard on another handle, a stop, a bad listener. */
export function watching(tools: QuestionSuiteTools): void {
  watchCalls(tools);
  badListener(tools);
}

/** A listener on another handle hears an ask and a settle through this one, and nothing once stopped. */
function watchCalls({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'watch on another handle calls back after an ask and after a settle through this one; once stopped, no more',
    test(async ({ store, other, eventually }) => {
      const elsewhere = await other();
      let calls = 0;
      const stop = elsewhere.watch(() => {
        calls += 1;
      });
      let askedId = '';
      try {
        askedId = (await store.ask(outgoing('bob', 'Ship it?'))).id;
        await eventually('a watch call after an ask', () => (calls > 0 ? true : undefined));
        // What a store noticed of the ask may still be on its way: let it arrive before counting.
        await sleep(300);
        const seen = calls;
        await store.settle(askedId, { state: 'answered', answer: 'yes' });
        await eventually('a watch call after a settle', () => (calls > seen ? true : undefined));
      } finally {
        stop();
      }
      stop();
      await sleep(500);
      const stopped = calls;
      const later = await store.ask(outgoing('bob', 'And this?'));
      await store.settle(later.id, { state: 'withdrawn' });
      await sleep(1_000);
      expect(calls, 'no call after the watch was stopped').toBe(stopped);
      expect((await elsewhere.get(askedId))?.state).toBe('answered');
    }),
    timeout,
  );
}

/** watch throws at once for a listener that is not a function. */
function badListener({ it, expect, test, timeout }: QuestionSuiteTools): void {
  it(
    'watch with a listener that is not a function throws a RegistryArgumentError at once',
    test(async ({ store, other }) => {
      for (const [what, handle] of [
        ['this handle', store],
        ['another handle', await other()],
      ] as const) {
        for (const listener of [undefined, 'call me', { handleEvent() {} }]) {
          let error: unknown;
          try {
            handle.watch(listener as never)();
          } catch (thrown) {
            error = thrown;
          }
          expect(RegistryArgumentError.isInstance(error), `on ${what}: received ${String(error)}`).toBe(true);
        }
      }
    }),
    timeout,
  );
}
