import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredMessage } from '@raider/tasks-registry';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/cleanup.js';
import { InboxFiles } from './inbox-files.js';
import { formatMessage, leasedName, sendingName, waitingName } from './message-file.js';

const DAY = 24 * 60 * 60 * 1000;

/** An inbox folder of agent `bob`, and its files read with a day's `maxAgeMs`. */
function inboxOf() {
  const inbox = join(tempDir(), 'bob');
  mkdirSync(inbox);
  const reports: string[] = [];
  const files = new InboxFiles({ maxTextLength: 1000, maxInboxMessages: 10, maxAgeMs: DAY }, (message) =>
    reports.push(message),
  );
  const write = (name: string, text: string, sentAt = Date.now()) => {
    const message: Omit<StoredMessage, 'id'> = { to: 'bob', text, notification: false, sentAt };
    writeFileSync(join(inbox, name), formatMessage(message));
  };
  const texts = async () => {
    const read: string[] = [];
    for await (const { message } of files.waiting(inbox, 'bob', Date.now())) read.push(message.text);
    return read;
  };
  return { inbox, files, reports, write, texts };
}

describe('InboxFiles', () => {
  it('lists the message files oldest first, and none for an inbox that does not exist', async () => {
    const { inbox, files, write } = inboxOf();
    write(waitingName(20), 'b');
    write(waitingName(3), 'a');
    write(leasedName(25, Date.now() + DAY, '0123456789abcdef'), 'c');
    expect((await files.entries(inbox)).map((entry) => entry.id)).toEqual([3, 20, 25]);
    expect(await files.entries(join(inbox, 'none'))).toEqual([]);
  });

  it("shows a send a killed sender made durable, and removes only a dead raider's temporary", async () => {
    const { inbox, files, write } = inboxOf();
    write(sendingName(7), 'durable');
    writeFileSync(join(inbox, '.message.json.2147483646.1.tmp'), 'half');
    expect(await files.entries(inbox)).toEqual([{ id: 7, name: waitingName(7) }]);
    expect(readdirSync(inbox)).toEqual([waitingName(7)]);
  });

  it('hands a take the messages no lease holds: waiting, or reserved by a lease that ended', async () => {
    const { write, texts } = inboxOf();
    write(waitingName(1), 'waiting');
    write(leasedName(2, Date.now() - 1, '0123456789abcdef'), 'lapsed');
    write(leasedName(3, Date.now() + DAY, '0123456789abcdef'), 'held');
    expect(await texts()).toEqual(['waiting', 'lapsed']);
  });

  it('drops a message older than maxAgeMs on the way', async () => {
    const { inbox, write, texts } = inboxOf();
    write(waitingName(1), 'old', Date.now() - 2 * DAY);
    write(waitingName(2), 'new');
    expect(await texts()).toEqual(['new']);
    expect(existsSync(join(inbox, waitingName(1)))).toBe(false);
  });

  it('moves a message that cannot be trusted aside, and says so', async () => {
    const { inbox, write, texts, reports } = inboxOf();
    writeFileSync(
      join(inbox, waitingName(1)),
      formatMessage({ to: 'alice', text: 'x', notification: false, sentAt: 1 }),
    );
    write(waitingName(2), 'fine');
    expect(await texts()).toEqual(['fine']);
    expect(readdirSync(inbox).sort()).toEqual(['1.json.corrupt', '2.json']);
    expect(reports).toEqual([
      `${join(inbox, '1.json')}: its recipient is not the inbox's agent; the message is skipped, moved aside to 1.json.corrupt`,
    ]);
  });

  it('counts what it dropped: expired and unreadable messages, never one a lease holds', async () => {
    const { inbox, files, write } = inboxOf();
    write(waitingName(1), 'old', Date.now() - 2 * DAY);
    writeFileSync(join(inbox, waitingName(2)), 'not json');
    write(leasedName(3, Date.now() + DAY, '0123456789abcdef'), 'held', Date.now() - 2 * DAY);
    write(waitingName(4), 'new');
    expect(await files.dropExpired(inbox, 'bob', await files.entries(inbox))).toBe(2);
    expect((await files.entries(inbox)).map((entry) => entry.id)).toEqual([3, 4]);
  });
});
