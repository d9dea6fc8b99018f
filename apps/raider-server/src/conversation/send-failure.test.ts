// The words of a refused send_message (issue 27): a limit in its own words, a write whose fate is
// unknown said so, anything else once as "nothing was sent" (never "not sent; nothing was sent").
import { MessageLimitError } from '@raider/tasks-registry';
import { describe, expect, it } from 'vitest';
import { sendFailure } from './messages.js';

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
