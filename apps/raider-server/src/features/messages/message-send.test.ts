// send_message at work (issues 27, 36): to one agent of the list or to every other one, a name no
// agent connected as refused (or, with sendToUnseen, written to); the words of a refused send: a
// limit in its own words, a write whose fate is unknown said so, anything else once as "nothing
// was sent" (never "not sent; nothing was sent").
import { MessageLimitError, memoryMessageStore } from '@raider/tasks-registry';
import { describe, expect, it } from 'vitest';
import { NO_OTHER_AGENT, type SendInboxes, sendFailure, sendMessage } from './message-send.js';

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
  const inboxes = (agents: string[], sendToUnseen = false): SendInboxes => {
    const store = memoryMessageStore();
    return { store: () => store, agents: async () => agents, sendToUnseen };
  };
  const textOf = (result: { content: { text?: string }[] }) => result.content[0]?.text;

  it("puts a message in an agent's inbox", async () => {
    const inbox = inboxes(['a', 'b']);
    const result = await sendMessage(inbox, 'a', { to: 'b', message: 'hello', summary: 'greeting' });
    expect(result.isError).toBeUndefined();
    expect(textOf(result as never)).toBe('Message sent to b');
    const [message] = await inbox.store().peek('b');
    expect(message).toMatchObject({ from: 'a', to: 'b', text: 'hello', label: 'greeting' });
  });

  it('refuses a name no agent connected as, with a did-you-mean, and sends nothing', async () => {
    const inbox = inboxes(['alice', 'bob', 'engineer']);
    const result = await sendMessage(inbox, 'alice', { to: 'enginer', message: 'hello' });
    expect(result.isError).toBe(true);
    expect(textOf(result as never)).toBe(
      'Error: to: expected an agent of this list, received "enginer" (no agent of that name has connected to it); did you mean "engineer"? Its agents: "alice", "bob", "engineer". Nothing was sent; a server started with --send-to-unseen writes to names not seen yet',
    );
    expect(await inbox.store().peek('enginer')).toEqual([]);
    expect(await inbox.store().peek('engineer')).toEqual([]);
  });

  it('with sendToUnseen writes to a name not seen yet', async () => {
    const inbox = inboxes(['alice'], true);
    expect(textOf((await sendMessage(inbox, 'alice', { to: 'enginer', message: 'hello' })) as never)).toBe(
      'Message sent to enginer',
    );
    expect(await inbox.store().peek('enginer')).toMatchObject([{ from: 'alice', text: 'hello' }]);
  });

  it('a roster that cannot be read is a failed send, not an unknown agent', async () => {
    const store = memoryMessageStore();
    const down: SendInboxes = {
      store: () => store,
      agents: async () => {
        throw new Error('ENOSPC: no space left on device');
      },
      sendToUnseen: false,
    };
    for (const to of ['bob', '*']) {
      const result = await sendMessage(down, 'alice', { to, message: 'hello' });
      expect(textOf(result as never)).toBe(
        'Error: the message could not be sent: ENOSPC: no space left on device; nothing was sent',
      );
    }
    expect(await store.peek('bob')).toEqual([]);
  });

  it('to "*" reaches every other agent of the list, and is refused when there is none', async () => {
    const inbox = inboxes(['a', 'b', 'c']);
    expect(textOf((await sendMessage(inbox, 'a', { to: '*', message: 'all' })) as never)).toBe(
      'Message sent to 2 agents',
    );
    expect(await inbox.store().peek('b')).toHaveLength(1);
    expect(await inbox.store().peek('c')).toHaveLength(1);
    expect(await inbox.store().peek('a')).toHaveLength(0);
    const alone = await sendMessage(inboxes(['a']), 'a', { to: '*', message: 'anyone?' });
    expect(alone.isError).toBe(true);
    expect(textOf(alone as never)).toBe(`Error: ${NO_OTHER_AGENT}`);
    expect(NO_OTHER_AGENT).toBe(
      'to: "*" reaches no other agent of this list yet (its agents are those that connected to it, each under its own name); nothing was sent',
    );
  });
});
