import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredMessage } from '@raider/tasks-registry';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/cleanup.js';
import { deliveryOf, giveBack, type Taken } from './message-delivery.js';
import { leasedName, waitingName } from './message-file.js';

const message = (id: number): StoredMessage => ({
  id: String(id),
  to: 'bob',
  text: `m${id}`,
  notification: false,
  sentAt: 1,
});

/** An inbox holding messages 1 and 2 reserved by one take, and the hooks a delivery is handed. */
function takenOf() {
  const inbox = join(tempDir(), 'bob');
  mkdirSync(inbox);
  const taken: Taken[] = [1, 2].map((id) => ({
    message: message(id),
    file: leasedName(id, Date.now() + 60_000, '0123456789abcdef'),
  }));
  for (const { file } of taken) writeFileSync(join(inbox, file), '{}');
  const calls: string[] = [];
  const hooks = {
    locked: async <T>(outcome: string, fn: () => Promise<T>) => {
      calls.push(`locked: ${outcome}`);
      return fn();
    },
    wake: () => calls.push('wake'),
    report: (text: string) => calls.push(`report: ${text}`),
  };
  return { inbox, taken, calls, hooks };
}

describe('message delivery', () => {
  it('hands the messages taken, frozen; done removes their files once', async () => {
    const { inbox, taken, calls, hooks } = takenOf();
    const delivery = deliveryOf(inbox, taken, hooks);
    expect(delivery.messages).toEqual([message(1), message(2)]);
    expect(Object.isFrozen(delivery.messages)).toBe(true);
    await delivery.done();
    expect(readdirSync(inbox)).toEqual([]);
    writeFileSync(join(inbox, (taken[0] as Taken).file), '{}');
    await delivery.release();
    expect(existsSync(join(inbox, (taken[0] as Taken).file))).toBe(true);
    expect(calls).toEqual([]);
  });

  it('release gives the messages back under the lock, wakes the inbox, and settles', async () => {
    const { inbox, taken, calls, hooks } = takenOf();
    const delivery = deliveryOf(inbox, taken, hooks);
    await delivery.release();
    expect(readdirSync(inbox).sort()).toEqual([waitingName(1), waitingName(2)]);
    expect(calls).toEqual(['locked: the messages are given back once the lease ends', 'wake']);
    await delivery.done();
    expect(readdirSync(inbox)).toHaveLength(2);
  });

  it('passes by a message done or taken again meanwhile', async () => {
    const { inbox, taken } = takenOf();
    rmSync(join(inbox, (taken[0] as Taken).file));
    await giveBack(inbox, taken);
    expect(readdirSync(inbox)).toEqual([waitingName(2)]);
  });

  it('a delivery of no message is settled already', async () => {
    const { inbox, calls, hooks } = takenOf();
    const delivery = deliveryOf(inbox, [], hooks);
    await delivery.release();
    await delivery.done();
    expect(calls).toEqual([]);
  });
});
