import { describe, expect, it } from 'vitest';
import { collectingRunner, failedOf } from '../../test/collecting-runner.js';
import { memoryMessageStore } from '../memory-message-store.js';
import { suiteTools } from '../message-store-conformance.js';
import { limits } from './limits.js';

describe('the group of limits', () => {
  it('registers its three tests, and passes the memory store that keeps the limits it is given', async () => {
    const { options, tests } = collectingRunner();
    limits(suiteTools('memory', ({ limits: given }) => ({ store: memoryMessageStore({ limits: given }) }), options));
    expect(tests).toHaveLength(3);
    expect(await failedOf(tests)).toEqual([]);
  }, 60_000);

  it('fails, every test of it, a store that keeps its own limits instead', async () => {
    const { options, tests } = collectingRunner();
    limits(suiteTools('own limits', () => ({ store: memoryMessageStore() }), options));
    expect(await failedOf(tests)).toEqual(tests.map((test) => test.name));
  }, 60_000);
});
