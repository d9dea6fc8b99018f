// send_message at work (issue 27): to one inbox or to every other agent; the words of a refused
// send: a limit in its own words, a write whose fate is unknown said so, anything else once as
// "nothing was sent" (never "not sent; nothing was sent").
import { MessageLimitError, memoryMessageStore } from '@raider/tasks-registry';
import { describe, expect, it } from 'vitest';
import { type SendInboxes, sendFailure, sendMessage } from './message-send.js';

describe('sendFailure', () => {
  it('says a failed send once', () => {
    const down = new Error('postgres://db/raider is unreachable (ECONNREFUSED); the message was not sent');
    expect(sendFailure(down)).toBe(
      'the message could not be sent: postgres://db/raider is unreachable (ECONNREFUSED); nothing was sent',
    );
    expect(sendFailure(new Error('ENOSPC: no space left on device'))).toBe(
      'the message could not be sent: ENOSPC: no space left on device; nothing was sent',
    );
  });

  it('says a write lost in flight may have been sent', () => {
    const lost = Object.assign(
      new Error('postgres://db/raider: the connection was lost before the write was answered (read ECONNRESET)'),
      {
        mayHaveBeenSaved: true,
      },
    );
    expect(sendFailure(lost)).toBe(
      'the message may have been sent: postgres://db/raider: the connection was lost before the write was answered (read ECONNRESET); it may still arrive, so send it again only if a duplicate does no harm',
    );
  });

  it("gives a limit's own words", () => {
    const limit = new MessageLimitError('send: text: expected at most 64000 characters, received 64001');
    expect(sendFailure(limit)).toBe('send: text: expected at most 64000 characters, received 64001');
  });
});

describe('sendMessage', () => {
  const inboxes = (agents: string[]): SendInboxes & { noted: string[] } => {
    const store = memoryMessageStore();
    const noted: string[] = [];
    return {
      store: () => store,
      roster: { note: async (agent) => void noted.push(agent) },
      agents: async () => agents,
      noted,
    };
  };
  const textOf = (result: { content: { text?: string }[] }) => result.content[0]?.text;

  it("puts a message in one agent's inbox and notes it on the roster", async () => {
    const inbox = inboxes([]);
    const result = await sendMessage(inbox, 'a', { to: 'b', message: 'hello', summary: 'greeting' });
    expect(result.isError).toBeUndefined();
    expect(inbox.noted).toEqual(['b']);
    const [message] = await inbox.store().peek('b');
    expect(message).toMatchObject({ from: 'a', to: 'b', text: 'hello', label: 'greeting' });
  });

  it('to "*" reaches every other agent of the list, and is refused when there is none', async () => {
    const inbox = inboxes(['a', 'b', 'c']);
    expect((await sendMessage(inbox, 'a', { to: '*', message: 'all' })).isError).toBeUndefined();
    expect(await inbox.store().peek('b')).toHaveLength(1);
    expect(await inbox.store().peek('c')).toHaveLength(1);
    expect(await inbox.store().peek('a')).toHaveLength(0);
    const alone = await sendMessage(inboxes(['a']), 'a', { to: '*', message: 'anyone?' });
    expect(alone.isError).toBe(true);
    expect(textOf(alone as never)).toMatch(/reaches no other agent of this list yet.*nothing was sent$/);
  });
});
