// Refused tokens slow their sender down (issue 38): after 50 refused tokens within a minute from one
// address, that address gets 429 with Retry-After, even with a right token, while another address
// is served as before. Two loopback addresses (127.0.0.1 and 127.0.0.2) stand for two machines.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServer, readOptions, startHttp } from '../src/index.js';

const RIGHT = 'alice-token-0123456789abcdef';
const TABLE = JSON.stringify({ agents: [{ name: 'alice', token: RIGHT }] });

const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** GET /healthz from `from` with `token`: the status and the headers. */
function health(url: string, token: string, from: string) {
  const target = new URL('/healthz', url);
  return new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
    const req = request(
      target,
      { method: 'GET', localAddress: from, agent: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('refused tokens per address', () => {
  it('50 refused tokens in a minute: the 51st request from that address is 429, others are served', async () => {
    const server = await startHttp(readOptions(['--http', '--port', '0', '--agents', TABLE], {}));
    servers.push(server);
    for (let attempt = 1; attempt <= 50; attempt += 1) {
      const refused = await health(server.url, `wrong-${attempt}`, '127.0.0.1');
      expect(refused.status).toBe(401);
      // Never the token back.
      expect(refused.body).not.toContain(`wrong-${attempt}`);
    }
    const blocked = await health(server.url, RIGHT, '127.0.0.1');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(60);
    expect(JSON.parse(blocked.body).error.message).toMatch(
      /^Too many requests: too many refused tokens from this address within a minute; try again in \d+ s$/,
    );
    // Another address: served, and its own wrong token is a plain 401, not 429.
    expect((await health(server.url, RIGHT, '127.0.0.2')).status).toBe(200);
    expect((await health(server.url, 'wrong', '127.0.0.2')).status).toBe(401);
    expect((await health(server.url, RIGHT, '127.0.0.2')).status).toBe(200);
  }, 60_000);
});
