// The guard with a table of agents, in milliseconds with fake requests: the token names the agent,
// X-Raider-Agent may only repeat it, the board wants a board token, refusals never show a token,
// and an address past the limit of refused tokens is answered 429 whatever it sends.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AgentTable } from '../credentials/agent-table.js';
import { FailureLimiter } from '../credentials/failure-limit.js';
import { listRefusal } from './credential-guard.js';
import { type GuardOptions, requestGuard } from './guard.js';

const BOB = 'bob-token-0123456789abcdef';
const DANA = 'dana-token-0123456789abcdef';
const table = AgentTable.parse(
  JSON.stringify([
    { name: 'bob', token: BOB, lists: ['alpha'] },
    { name: 'Dana', token: DANA, board: true },
  ]),
  'json',
  'test',
);

const guardWith = (limiter = new FailureLimiter()) => {
  const options: GuardOptions = {
    host: '127.0.0.1',
    port: 3333,
    allowedHosts: [],
    allowedOrigins: [],
    token: undefined,
    boardSecret: undefined,
    credentials: { table: () => table, limiter },
  };
  return requestGuard(options);
};

const request = (url: string, headers: Record<string, string> = {}, address = '127.0.0.1') =>
  ({
    url,
    method: 'GET',
    headers: { host: '127.0.0.1:3333', ...headers },
    socket: { remoteAddress: address },
  }) as unknown as IncomingMessage;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('the guard with a table of agents', () => {
  it('the token names the agent; without one of the table, 401 and never the token back', () => {
    const guard = guardWith();
    const passed = guard(request('/mcp', bearer(BOB)));
    expect(passed).toMatchObject({ kind: 'pass', credential: { name: 'bob' } });
    for (const wrong of ['', 'nope', `${BOB}x`, BOB.slice(0, -1)]) {
      const refused = guard(request('/mcp', bearer(wrong)));
      expect(refused).toEqual({
        kind: 'refuse',
        status: 401,
        message: 'Unauthorized: expected Authorization: Bearer <token>',
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    // No Authorization at all: the same.
    expect(guard(request('/mcp'))).toMatchObject({ kind: 'refuse', status: 401 });
  });

  it('a token outside ASCII matches as its UTF-8 bytes, as Node hands a header over (latin1)', () => {
    const token = 'jürgen-token-0123456789';
    const unicode = AgentTable.parse(JSON.stringify([{ name: 'Jürgen', token }]), 'json', 'test');
    const guard = requestGuard({
      host: '127.0.0.1',
      port: 3333,
      allowedHosts: [],
      allowedOrigins: [],
      token: undefined,
      boardSecret: undefined,
      credentials: { table: () => unicode, limiter: new FailureLimiter() },
    });
    const onTheWire = Buffer.from(`Bearer ${token}`, 'utf8').toString('latin1');
    expect(guard(request('/mcp', { authorization: onTheWire }))).toMatchObject({ credential: { name: 'Jürgen' } });
  });

  it('X-Raider-Agent may only repeat the name of the token', () => {
    const guard = guardWith();
    expect(guard(request('/mcp', { ...bearer(BOB), 'x-raider-agent': 'bob' }))).toMatchObject({ kind: 'pass' });
    expect(guard(request('/mcp', { ...bearer(BOB), 'x-raider-agent': 'alice' }))).toEqual({
      kind: 'refuse',
      status: 403,
      message: `Forbidden: this token is "bob"'s; x-raider-agent may only repeat that name, received "alice"`,
    });
    // A header that is no name at all is refused the same way, and a long one is cut.
    expect(guard(request('/mcp', { ...bearer(BOB), 'x-raider-agent': '..' }))).toMatchObject({
      status: 403,
      message: `Forbidden: this token is "bob"'s; x-raider-agent may only repeat that name, received a name that is not one`,
    });
    const long = 'm'.repeat(190);
    const refused = guard(request('/mcp', { ...bearer(BOB), 'x-raider-agent': long }));
    expect(refused.kind === 'refuse' && refused.message.length).toBeLessThan(200);
  });

  it('the board wants a board token, whose name is the person; a page gets its page', () => {
    const guard = guardWith();
    expect(guard(request('/board/state', bearer(DANA)))).toMatchObject({ kind: 'pass', credential: { name: 'Dana' } });
    expect(guard(request('/board/state', bearer(BOB)))).toEqual({
      kind: 'refuse',
      status: 403,
      message: 'Forbidden: the token of "bob" may not open the board (board = true in the agents table allows it)',
    });
    expect(guard(request(`/?token=${DANA}`))).toEqual({ kind: 'login', token: DANA });
    expect(guard(request('/board/state', { cookie: `raider_token=${encodeURIComponent(DANA)}` }))).toMatchObject({
      kind: 'pass',
    });
    expect(guard(request('/', { accept: 'text/html' }))).toMatchObject({
      status: 401,
      page: { tokenGiven: true, wrongToken: false },
    });
  });

  it('past the limit of refused tokens an address gets 429, even with a right token; another does not', () => {
    let now = 0;
    const guard = guardWith(new FailureLimiter({ max: 3, windowMs: 60_000, now: () => now }));
    for (let i = 0; i < 3; i += 1) expect(guard(request('/mcp', bearer('wrong')))).toMatchObject({ status: 401 });
    const blocked = guard(request('/mcp', bearer(BOB)));
    expect(blocked).toMatchObject({ kind: 'refuse', status: 429, headers: { 'retry-after': '60' } });
    expect(blocked.kind === 'refuse' && blocked.message).toBe(
      'Too many requests: too many refused tokens from this address within a minute; try again in 60 s',
    );
    expect(guard(request('/mcp', bearer(BOB), '10.0.0.2'))).toMatchObject({ kind: 'pass' });
    now = 60_001;
    expect(guard(request('/mcp', bearer(BOB)))).toMatchObject({ kind: 'pass' });
  });

  it('an agent kept to some lists is refused the others, with the lists it has', () => {
    const bob = table.byName('bob');
    const dana = table.byName('Dana');
    if (!bob || !dana) throw new Error('the table lost its entries');
    expect(listRefusal(bob, 'alpha')).toBeUndefined();
    expect(listRefusal(bob, 'beta')).toBe(
      'Forbidden: "bob" may not use list "beta" (the agents table gives it "alpha")',
    );
    expect(listRefusal(dana, 'beta')).toBeUndefined();
    // A session naming no list gets one of its own: none of bob's, fine for Dana.
    expect(listRefusal(bob, undefined)).toBe(
      'Forbidden: "bob" may use only some lists: expected x-raider-list naming one of them, received none',
    );
    expect(listRefusal(dana, undefined)).toBeUndefined();
  });
});
