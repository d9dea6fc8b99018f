/** The conformance group of watch, and of the arguments a store refuses. */
import { RegistryArgumentError, RegistryRangeError } from '../errors.js';
import type { MessageStore, OutgoingMessage } from '../message-store.js';
import { plain, type SuiteTools, sleep, texts } from './suite-context.js';

/** watch, and the arguments a store refuses. */
export function watchAndArguments(tools: SuiteTools): void {
  watchCalls(tools);
  badArguments(tools);
}

/** watch calls back after sends on either handle, and not once stopped. */
function watchCalls({ it, expect, test, timeout }: SuiteTools): void {
  it(
    'watch calls back after a send through this handle and through another; once stopped, no more',
    test(async ({ store, other, eventually }) => {
      let calls = 0;
      const stop = store.watch('bob', () => {
        calls += 1;
      });
      try {
        await store.send(plain('bob', 'b1'));
        await eventually('a watch call after a send on this handle', () => (calls > 0 ? true : undefined));
        const seen = calls;
        await (await other()).send(plain('bob', 'b2'));
        await eventually('a watch call after a send on another handle', () => (calls > seen ? true : undefined));
      } finally {
        stop();
      }
      stop();
      // What a store had noticed before the stop may still be on its way: let it settle first.
      await sleep(500);
      const stopped = calls;
      await (await other()).send(plain('bob', 'b3'));
      await store.send(plain('bob', 'b4'));
      await sleep(1_000);
      expect(calls, 'no call after the watch was stopped').toBe(stopped);
      expect(texts(await store.peek('bob'))).toEqual(['b1', 'b2', 'b3', 'b4']);
    }),
    timeout,
  );
}

/** Sends a store must refuse, each with what it is. */
function badSends(): [string, unknown][] {
  return [
    ['no message', undefined],
    ['null', null],
    ['a string', 'hello'],
    ['an empty `to`', plain('', 'x')],
    ['a `to` of 201 characters', plain('n'.repeat(201), 'x')],
    ['a numeric `to`', { to: 5, text: 'x', notification: false }],
    ['no `to`', { text: 'x', notification: false }],
    ['an empty `from`', plain('bob', 'x', { from: '' })],
    ['a numeric text', { to: 'bob', text: 5, notification: false }],
    ['no text', { to: 'bob', notification: false }],
    ['no `notification`', { to: 'bob', text: 'x' }],
    ['a string `notification`', { to: 'bob', text: 'x', notification: 'yes' }],
    ['a numeric `taskId`', { to: 'bob', text: 'x', notification: false, taskId: 7 }],
  ];
}

/** Takes and peeks of a name a store must refuse, on `store`. */
function badReads(store: MessageStore): [string, () => Promise<unknown>][] {
  return [
    ['take of an empty name', () => store.take('')],
    ['take of a numeric name', () => store.take(5 as unknown as string)],
    ['take of a name of 201 characters', () => store.take('n'.repeat(201))],
    ['peek of an empty name', () => store.peek('')],
    ['peek of no name', () => store.peek(undefined as unknown as string)],
  ];
}

/** Take options a store must refuse (a RegistryArgumentError, or a RegistryRangeError for a number out of range). */
function badTakeOptions() {
  return [
    ['leaseMs -1', { leaseMs: -1 }],
    ['leaseMs 0', { leaseMs: 0 }],
    ['leaseMs "soon"', { leaseMs: 'soon' }],
    ['max 0', { max: 0 }],
    ['max 1.5', { max: 1.5 }],
  ] as const;
}

/** Watches a store must refuse at once, on `store`. */
function badWatches(store: MessageStore) {
  return [
    ['watch of an empty name', () => store.watch('', () => {})],
    ['watch without a function', () => store.watch('bob', 'call me' as never)],
  ] as const;
}

/** Bad arguments are refused with a RegistryArgumentError or RegistryRangeError, changing nothing. */
function badArguments({ it, expect, test, timeout }: SuiteTools): void {
  it(
    'bad arguments are refused with a RegistryArgumentError (a RegistryRangeError for a number out of range), changing nothing',
    test(async ({ store, refusal }) => {
      const longName = 'n'.repeat(200);
      const good = [await store.send(plain('bob', 'ok', { from: longName })), await store.send(plain(longName, 'ok'))];
      for (const [what, message] of badSends()) {
        const error = await refusal(`send of ${what}`, () => store.send(message as OutgoingMessage));
        expect(RegistryArgumentError.isInstance(error), `send of ${what}: received ${String(error)}`).toBe(true);
      }
      for (const [what, call] of badReads(store)) {
        const error = await refusal(what, call);
        expect(RegistryArgumentError.isInstance(error), `${what}: received ${String(error)}`).toBe(true);
      }
      for (const [what, options] of badTakeOptions()) {
        const error = await refusal(`take with ${what}`, () => store.take('bob', options as never));
        const refused = RegistryArgumentError.isInstance(error) || RegistryRangeError.isInstance(error);
        expect(refused, `take with ${what}: received ${String(error)}`).toBe(true);
      }
      for (const [what, call] of badWatches(store)) {
        let error: unknown;
        try {
          call()();
        } catch (thrown) {
          error = thrown;
        }
        expect(RegistryArgumentError.isInstance(error), `${what}: received ${String(error)}`).toBe(true);
      }
      expect(await store.peek('bob')).toEqual([good[0]]);
      expect(await store.peek(longName)).toEqual([good[1]]);
    }),
    timeout,
  );
}
