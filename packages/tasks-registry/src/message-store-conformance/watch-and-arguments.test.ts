import { describe, expect, it } from 'vitest';
import { collectingRunner, failedOf } from '../../test/collecting-runner.js';
import { memoryMessageStore } from '../memory-message-store.js';
import type { MessageStore } from '../message-store.js';
import { suiteTools } from '../message-store-conformance.js';
import { watchAndArguments } from './watch-and-arguments.js';

describe('the group of watch and arguments', () => {
  it('registers its two tests, and passes the memory store', async () => {
    const { options, tests } = collectingRunner();
    watchAndArguments(suiteTools('memory', ({ limits }) => ({ store: memoryMessageStore({ limits }) }), options));
    expect(tests).toHaveLength(2);
    expect(await failedOf(tests)).toEqual([]);
  });

  it('fails a store whose watch never calls back, and one that takes a name it must refuse', async () => {
    const { options, tests } = collectingRunner();
    const open = () => {
      const store = memoryMessageStore();
      const careless: MessageStore = {
        ...store,
        watch: () => () => {},
        peek: async (agent) => (agent === '' ? [] : store.peek(agent)),
      };
      return { store: careless };
    };
    watchAndArguments(suiteTools('careless', open, options));
    expect(await failedOf(tests)).toEqual(tests.map((test) => test.name));
  });
});
