/**
 * What /mcp answers before a call reaches a session: a JSON-RPC error with its HTTP status, the
 * guard's verdict (a refusal, the board's login, OAuth's 404), and a POST's body read as a message.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './body.js';
import type { Verdict } from './guard.js';

/** Answers a JSON-RPC error with an HTTP status (nothing when an answer has begun already). */
export function rpcError(res: ServerResponse, status: number, code: number, message: string, headers = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Answers the guard's refusal, login or OAuth 404; true when it answered. */
export function answerVerdict(res: ServerResponse, verdict: Verdict): boolean {
  if (verdict.kind === 'no-oauth') {
    // OAuth's own error shape (RFC 6749 5.2): an OAuth client that reads the body (the SDK's
    // registration does) shows the person the description, not "Invalid OAuth error response".
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'not_found', error_description: verdict.message }));
    return true;
  }
  if (verdict.kind === 'refuse') {
    rpcError(res, verdict.status, -32000, verdict.message, verdict.headers);
    return true;
  }
  if (verdict.kind === 'login') {
    res.writeHead(303, {
      location: '/',
      'set-cookie': `raider_token=${encodeURIComponent(verdict.token)}; HttpOnly; SameSite=Strict; Path=/`,
    });
    res.end();
    return true;
  }
  return false;
}

/** The JSON-RPC body of a POST, or undefined when the request was answered (too large, not JSON). */
export async function readMessage(req: IncomingMessage, res: ServerResponse, limit: number): Promise<unknown> {
  let read: Awaited<ReturnType<typeof readBody>>;
  try {
    read = await readBody(req, limit);
  } catch {
    return rpcError(res, 400, -32600, 'Invalid request: the body could not be read');
  }
  // Past the limit the rest of the body is drained unread (closing at once could reset the
  // connection before the client reads this answer); the request timeout bounds how long.
  if ('tooLarge' in read) return rpcError(res, 413, -32600, `Request body too large: expected at most ${limit} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return rpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null) {
    return rpcError(res, 400, -32600, 'Invalid request: expected a JSON-RPC message or batch');
  }
  return body;
}
