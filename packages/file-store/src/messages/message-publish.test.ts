import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/cleanup.js';
import { ListFileError } from '../errors.js';
import { sendingName, waitingName } from './message-file.js';
import { discard, MessagePublisher, prepareMessage } from './message-publish.js';

/** A list folder, an inbox path below it (not made yet), and a publisher of its messages. */
function publisherOf() {
  const list = join(tempDir(), 'list');
  const inbox = join(list, '.messages', 'bob');
  const reports: string[] = [];
  const publisher = new MessagePublisher(list, (message) => reports.push(message));
  return { inbox, publisher, reports };
}

const fence = { check: async () => {} };
const lost = {
  check: async () => {
    throw Object.assign(new ListFileError('/list/.messages/.lock: the message lock was lost'), { lockLost: true });
  },
};

describe('message publish', () => {
  it('prepares a file under a hidden temporary name, making the inbox, and discards it', async () => {
    const { inbox } = publisherOf();
    const prepared = await prepareMessage(inbox, Buffer.from('{"text":"hi"}\n'));
    expect(readFileSync(prepared.path, 'utf8')).toBe('{"text":"hi"}\n');
    expect(readdirSync(inbox)).toHaveLength(1);
    expect(readdirSync(inbox)[0]).toMatch(/^\.message\.json\.\d+\.\d+\.tmp$/);
    await discard(prepared);
    expect(readdirSync(inbox)).toEqual([]);
  });

  it('an inbox that cannot be made is the store\'s own error, "nothing was sent", not its cleanup\'s', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'list'), 'a file where the list folder should be');
    const inbox = join(root, 'list', '.messages', 'bob');
    let thrown: unknown;
    try {
      await prepareMessage(inbox, Buffer.from('{"text":"hi"}\n'));
    } catch (error) {
      thrown = error;
    }
    expect(ListFileError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(
      /\/list\/\.messages\/bob\/\.message\.json\.\d+\.\d+\.tmp: ENOTDIR; nothing was sent$/,
    );
  });

  it('publishes a prepared file as <id>.json, leaving nothing else', async () => {
    const { inbox, publisher, reports } = publisherOf();
    const prepared = await prepareMessage(inbox, Buffer.from('one\n'));
    await publisher.publish(inbox, prepared, 41, fence);
    await discard(prepared);
    expect(readdirSync(inbox)).toEqual([waitingName(41)]);
    expect(readFileSync(join(inbox, waitingName(41)), 'utf8')).toBe('one\n');
    expect(reports).toEqual([]);
  });

  it('publishes nothing when the lock was lost: nothing was sent', async () => {
    const { inbox, publisher } = publisherOf();
    const prepared = await prepareMessage(inbox, Buffer.from('one\n'));
    await expect(publisher.publish(inbox, prepared, 41, lost)).rejects.toThrow(
      '/list/.messages/.lock: the message lock was lost; nothing was sent',
    );
    await discard(prepared);
    expect(readdirSync(inbox)).toEqual([]);
  });

  it('never links a message over a file that exists', async () => {
    const { inbox, publisher } = publisherOf();
    const prepared = await prepareMessage(inbox, Buffer.from('mine\n'));
    writeFileSync(join(inbox, sendingName(41)), 'theirs');
    await expect(publisher.publish(inbox, prepared, 41, fence)).rejects.toThrow(
      `${join(inbox, sendingName(41))}: exists already, though the message lock was held; nothing was sent`,
    );
    await discard(prepared);
    expect(readFileSync(join(inbox, sendingName(41)), 'utf8')).toBe('theirs');
    expect(existsSync(join(inbox, waitingName(41)))).toBe(false);
  });
});
