// The tap's word of written answers (issue 27: messages taken for a call are removed only once its
// answer was written): true once the transport wrote the answer of the request id, false when the
// write failed or no answer followed the call's cancellation.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { tapTransport } from './transport-tap.js';

/** A transport whose send fails for the ids in `failing`. */
function fakeTransport(failing: Set<string | number> = new Set()): Transport {
  return {
    start: async () => {},
    close: async () => {},
    send: async (message: JSONRPCMessage) => {
      const id = (message as { id?: string | number }).id;
      if (id !== undefined && failing.has(id)) throw new Error('the client went away');
    },
  } as Transport;
}

const answer = (id: string | number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [] } });

describe('the tap: answered', () => {
  it('is true once the answer of that request id was written, and ignores other ids', async () => {
    const tapped = tapTransport(fakeTransport());
    const signal = new AbortController().signal;
    const seven = tapped.answered(7, signal);
    await tapped.transport.send(answer(8));
    await tapped.transport.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 7, progress: 1 },
    });
    let settled = false;
    void seven.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await tapped.transport.send(answer(7));
    await expect(seven).resolves.toBe(true);
  });

  it('is false when the answer could not be written', async () => {
    const tapped = tapTransport(fakeTransport(new Set(['lost'])));
    const lost = tapped.answered('lost', new AbortController().signal);
    await expect(tapped.transport.send(answer('lost'))).rejects.toThrow('the client went away');
    await expect(lost).resolves.toBe(false);
  });

  it('after the call was cancelled: true for an answer written in the grace that follows, else false', async () => {
    const tapped = tapTransport(fakeTransport());
    const late = new AbortController();
    const lateAnswered = tapped.answered(1, late.signal);
    late.abort();
    await tapped.transport.send(answer(1));
    await expect(lateAnswered).resolves.toBe(true);
    const never = new AbortController();
    const neverAnswered = tapped.answered(2, never.signal);
    never.abort();
    await expect(neverAnswered).resolves.toBe(false);
    // Aborted before it was asked: no answer is waited for.
    await expect(tapped.answered(3, AbortSignal.abort())).resolves.toBe(false);
  });
});
