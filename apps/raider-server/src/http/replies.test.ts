// What /mcp answers before a session: JSON-RPC errors, the guard's verdicts, a POST's body as a message.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { answerVerdict, readMessage, rpcError } from './replies.js';

/** A response that records what was written. */
function recorder() {
  const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
  const res = {
    headersSent: false,
    writeHead(status: number, headers: Record<string, string>) {
      sent.status = status;
      sent.headers = headers;
      this.headersSent = true;
      return this;
    },
    end(body?: string) {
      sent.body = body;
      return this;
    },
  };
  return { res: res as unknown as ServerResponse, sent };
}

const request = (body: string) => Readable.from([Buffer.from(body)]) as unknown as IncomingMessage;

describe('replies', () => {
  it('rpcError answers a JSON-RPC error once, with the headers given', () => {
    const { res, sent } = recorder();
    rpcError(res, 401, -32000, 'no', { 'www-authenticate': 'Bearer' });
    expect(sent.status).toBe(401);
    expect(sent.headers).toEqual({ 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
    expect(JSON.parse(sent.body as string)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'no' },
      id: null,
    });
    rpcError(res, 500, -32603, 'late');
    expect(sent.status).toBe(401);
  });

  it("answerVerdict answers a refusal, the board's login and OAuth's 404, and lets a pass through", () => {
    const pass = recorder();
    expect(answerVerdict(pass.res, { kind: 'pass' })).toBe(false);
    expect(pass.sent.status).toBeUndefined();
    const login = recorder();
    expect(answerVerdict(login.res, { kind: 'login', token: 'a b' })).toBe(true);
    expect(login.sent).toMatchObject({ status: 303, headers: { location: '/' } });
    expect(login.sent.headers?.['set-cookie']).toBe('raider_token=a%20b; HttpOnly; SameSite=Strict; Path=/');
    const oauth = recorder();
    expect(answerVerdict(oauth.res, { kind: 'no-oauth', message: 'none' })).toBe(true);
    expect(JSON.parse(oauth.sent.body as string)).toEqual({ error: 'not_found', error_description: 'none' });
  });

  it('readMessage gives the JSON body, else answers 413, 400 or a parse error', async () => {
    expect(await readMessage(request('{"jsonrpc":"2.0"}'), recorder().res, 1024)).toEqual({ jsonrpc: '2.0' });
    for (const [body, limit, status, code] of [
      ['x'.repeat(20), 10, 413, -32600],
      ['{not json', 1024, 400, -32700],
      ['42', 1024, 400, -32600],
    ] as const) {
      const { res, sent } = recorder();
      expect(await readMessage(request(body), res, limit)).toBeUndefined();
      expect([sent.status, JSON.parse(sent.body as string).error.code]).toEqual([status, code]);
    }
  });

  it('readMessage answers 400 -32600 with the id to a body that nests too deep, before parsing it', async () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const expected = 'Invalid request: the message nests too deep: expected at most 64 levels of arrays and objects';
    for (const [body, id, levels] of [
      [`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"x":${deep(10_000)}}}}`, 3, 10_003],
      [deep(10_000), null, 10_000],
      [`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`, null, 65],
      // Too deep and not JSON either: the depth is judged first, on the text.
      [`{"id":"x","params":${'['.repeat(100)}`, null, 101],
    ] as const) {
      const { res, sent } = recorder();
      expect(await readMessage(request(body), res, 1024 * 1024)).toBeUndefined();
      expect(sent.status).toBe(400);
      expect(JSON.parse(sent.body as string)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: `${expected}, received ${levels} levels` },
        id,
      });
    }
    // At the limit the body is the message, parsed.
    const atLimit = `{"jsonrpc":"2.0","id":1,"params":${deep(63)}}`;
    expect(await readMessage(request(atLimit), recorder().res, 1024)).toEqual(JSON.parse(atLimit));
  });
});
