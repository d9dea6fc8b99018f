import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/cleanup.js';
import { ListFileError } from './errors.js';
import type { LockFence } from './list-lock.js';
import { wholeStateStore } from './whole-state-store.js';

/** A store of `state.json` in a fresh folder, run under a fence lost after `lostAfter` checks. */
function storeOf() {
  const folder = tempDir();
  const path = join(folder, 'state.json');
  const fence = { lostAfter: Number.POSITIVE_INFINITY, checks: 0 };
  const check: LockFence = {
    check: async () => {
      fence.checks += 1;
      if (fence.checks > fence.lostAfter)
        throw Object.assign(new ListFileError(`${folder}: the list lock was lost`), { lockLost: true });
    },
  };
  let readies = 0;
  const store = wholeStateStore<{ items: string[] }>(
    path,
    (fn) => fn(check),
    async () => {
      readies += 1;
    },
  );
  return { folder, path, fence, store, readies: () => readies };
}

describe('wholeStateStore', () => {
  it('loads nothing until a state is saved, then the state as saved: JSON and a newline', async () => {
    const { path, store, readies } = storeOf();
    expect(await store.load()).toBeUndefined();
    expect(await store.transact((current) => ({ next: { items: ['a'] }, result: current }))).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('{"items":["a"]}\n');
    expect(await store.load()).toEqual({ items: ['a'] });
    expect(readies()).toBe(3);
  });

  it('writes nothing for a transaction with no next state', async () => {
    const { folder, store } = storeOf();
    expect(await store.transact(() => ({ result: 'kept' }))).toBe('kept');
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses a file that holds no JSON object, saying how long it is', async () => {
    const { path, store } = storeOf();
    writeFileSync(path, '[1,2]');
    await expect(store.load()).rejects.toThrow(`${path}: not a JSON object (5 characters); fix or remove the file`);
  });

  it('keeps the previous version when the lock is lost before the rename', async () => {
    const { folder, path, fence, store } = storeOf();
    await store.transact(() => ({ next: { items: ['old'] }, result: undefined }));
    fence.lostAfter = fence.checks;
    await expect(store.transact(() => ({ next: { items: ['new'] }, result: undefined }))).rejects.toThrow(
      `${folder}: the list lock was lost; the previous version is kept`,
    );
    expect(readFileSync(path, 'utf8')).toBe('{"items":["old"]}\n');
    expect(readdirSync(folder)).toEqual(['state.json']);
  });

  it('says the new version may have been saved when the lock is lost after the rename', async () => {
    const { folder, path, fence, store } = storeOf();
    // The check before the rename passes; the one after the folder's fsync finds the lock lost.
    fence.lostAfter = fence.checks + 1;
    const error = await store
      .transact(() => ({ next: { items: ['new'] }, result: undefined }))
      .catch((caught) => caught);
    expect((error as Error).message).toBe(`${folder}: the list lock was lost; the new version may have been saved`);
    expect((error as { mayHaveBeenSaved?: boolean }).mayHaveBeenSaved).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"items":["new"]}\n');
  });
});
