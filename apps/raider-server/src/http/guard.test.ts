// The request guard in milliseconds, with fake requests.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type GuardOptions, isOAuthPath, NO_OAUTH_MESSAGE, requestGuard, wantsPage } from './guard.js';

const base: GuardOptions = {
  host: '127.0.0.1',
  port: 3333,
  allowedHosts: [],
  allowedOrigins: [],
  token: undefined,
  boardSecret: undefined,
};

const request = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  ({ url, method, headers: { host: '127.0.0.1:3333', ...headers } }) as unknown as IncomingMessage;

describe('requestGuard', () => {
  it('checks Host against DNS rebinding and Origin against pages from elsewhere', () => {
    const guard = requestGuard(base);
    expect(guard(request('/mcp'))).toEqual({ kind: 'pass' });
    expect(guard(request('/mcp', { host: 'localhost:3333' }))).toEqual({ kind: 'pass' });
    expect(guard(request('/mcp', { host: 'evil.example:3333' }))).toMatchObject({ kind: 'refuse', status: 403 });
    expect(guard(request('/mcp', { origin: 'https://evil.example' }))).toMatchObject({
      kind: 'refuse',
      status: 403,
      message: 'Forbidden: Origin "https://evil.example" is not allowed',
    });
    expect(guard(request('/mcp', { origin: 'http://localhost:3333' }))).toEqual({ kind: 'pass' });
  });

  it("refuses a loopback name on another port, and an Origin on another port, in its own words (where SDK v2's checks, hostname alone, would pass them: decision 0013)", () => {
    const guard = requestGuard(base);
    expect(guard(request('/mcp', { host: 'localhost:9999' }))).toEqual({
      kind: 'refuse',
      status: 403,
      message: 'Forbidden: Host "localhost:9999" is not allowed',
    });
    expect(guard(request('/mcp', { origin: 'http://localhost:9999' }))).toEqual({
      kind: 'refuse',
      status: 403,
      message: 'Forbidden: Origin "http://localhost:9999" is not allowed',
    });
    expect(guard(request('/mcp', { host: 'localhost' }))).toEqual({ kind: 'pass' });
  });

  it('with a token, every request proves it; a wildcard bind answers to loopback names', () => {
    const guard = requestGuard({ ...base, host: '0.0.0.0', token: 'a-token-of-16-chars' });
    expect(guard(request('/mcp'))).toMatchObject({ kind: 'refuse', status: 401 });
    expect(guard(request('/mcp', { authorization: 'Bearer a-token-of-16-chars' }))).toEqual({ kind: 'pass' });
    expect(guard(request('/healthz', { authorization: 'Bearer wrong' }))).toMatchObject({ status: 401 });
  });

  it('without a token the board asks for its secret; /mcp and /healthz stay open', () => {
    const guard = requestGuard({ ...base, boardSecret: 's3cret-made-at-start' });
    expect(guard(request('/mcp', {}, 'POST'))).toEqual({ kind: 'pass' });
    expect(guard(request('/healthz'))).toEqual({ kind: 'pass' });
    expect(guard(request('/board/state'))).toMatchObject({ kind: 'refuse', status: 401 });
    expect(guard(request('/?token=s3cret-made-at-start'))).toEqual({ kind: 'login', token: 's3cret-made-at-start' });
    expect(guard(request('/board/state', { cookie: 'raider_token=s3cret-made-at-start' }))).toEqual({ kind: 'pass' });
    // A malformed cookie is refused like a wrong one, not an error.
    expect(guard(request('/board/state', { cookie: 'raider_token=%E0%A4%A' }))).toMatchObject({ status: 401 });
  });

  it("a browser asking a board path for a page without the secret gets the secret page's verdict; API clients keep JSON", () => {
    const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const made = requestGuard({ ...base, boardSecret: 's3cret-made-at-start' });
    const page = { tokenGiven: false, wrongToken: false };
    for (const path of ['/', '/board/state', '/board/events', '/index.html', '/assets/x.js']) {
      expect(made(request(path, html))).toMatchObject({ kind: 'refuse', status: 401, page });
    }
    expect(made(request('/?token=wrong', html))).toMatchObject({ page: { tokenGiven: false, wrongToken: true } });
    // Not a page: an API call, an event stream, a POST, or /mcp (which is open on loopback anyway).
    expect(made(request('/board/state'))).not.toHaveProperty('page');
    expect(made(request('/board/events', { accept: 'text/event-stream' }))).not.toHaveProperty('page');
    expect(made(request('/board/message', html, 'POST'))).not.toHaveProperty('page');
    // With the secret the page is served as before.
    expect(made(request('/', { ...html, cookie: 'raider_token=s3cret-made-at-start' }))).toEqual({ kind: 'pass' });
    // With --token: the page says so; /mcp keeps its JSON 401, and without a board there is no page.
    const token = { ...base, token: 'a-token-of-16-chars' };
    const given = requestGuard({ ...token, boardSecret: 'a-token-of-16-chars' });
    expect(given(request('/', html))).toMatchObject({ page: { tokenGiven: true, wrongToken: false } });
    expect(given(request('/mcp', html))).not.toHaveProperty('page');
    expect(requestGuard(token)(request('/', html))).not.toHaveProperty('page');
  });

  it('wantsPage: a GET whose Accept names text/html', () => {
    const asking = (accept: string | undefined, method = 'GET') =>
      wantsPage({ method, headers: accept === undefined ? {} : { accept } });
    expect(asking('text/html')).toBe(true);
    expect(asking('application/json, TEXT/HTML;q=0.5')).toBe(true);
    expect(asking('text/html', 'POST')).toBe(false);
    expect(asking('*/*')).toBe(false);
    expect(asking('text/htmlx')).toBe(false);
    expect(asking(undefined)).toBe(false);
  });

  it('answers OAuth discovery and registration with no-oauth (404) before the token, after Host and Origin', () => {
    const noOAuth = { kind: 'no-oauth', message: NO_OAUTH_MESSAGE };
    const paths = [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server/mcp',
      '/.well-known/openid-configuration',
      '/.well-known/openid-configuration/mcp',
      '/mcp/.well-known/openid-configuration',
      '/register',
    ];
    for (const options of [
      { ...base, host: '0.0.0.0', token: 'a-token-of-16-chars' },
      { ...base, boardSecret: 's3cret-made-at-start' },
      base,
    ]) {
      const guard = requestGuard(options);
      for (const path of paths) {
        expect(guard(request(path))).toEqual(noOAuth);
        expect(guard(request(path, {}, 'POST'))).toEqual(noOAuth);
      }
      // Host and Origin come first: a page from elsewhere gets its 403, not the 404.
      expect(guard(request('/register', { host: 'evil.example:3333' }, 'POST'))).toMatchObject({ status: 403 });
      expect(guard(request('/register', { origin: 'https://evil.example' }, 'POST'))).toMatchObject({ status: 403 });
    }
    expect(NO_OAUTH_MESSAGE).toMatch(/raider does no OAuth.*Authorization: Bearer <token>/);
    // /mcp itself keeps its 401 and WWW-Authenticate: Bearer, and look-alikes are not taken for OAuth.
    const guard = requestGuard({ ...base, token: 'a-token-of-16-chars' });
    expect(guard(request('/mcp', {}, 'POST'))).toMatchObject({
      kind: 'refuse',
      status: 401,
      headers: { 'www-authenticate': 'Bearer' },
    });
    for (const path of ['/registered', '/.well-known/other', '/board/register-x', '/mcp']) {
      expect(isOAuthPath(path)).toBe(false);
    }
  });
});

describe('a token outside ASCII', () => {
  it('matches as its UTF-8 bytes, as Node hands the header over (latin1)', () => {
    const token = 'jürgen-token-0123456789';
    const guard = requestGuard({ ...base, token });
    const onTheWire = Buffer.from(`Bearer ${token}`, 'utf8').toString('latin1');
    expect(guard(request('/mcp', { authorization: onTheWire }))).toEqual({ kind: 'pass' });
    expect(guard(request('/mcp', { authorization: `Bearer ${token.replace('ü', 'u')}` }))).toMatchObject({
      kind: 'refuse',
      status: 401,
    });
  });
});
