/**
 * What /mcp answers before a call reaches a session: a JSON-RPC error with its HTTP status, the
 * guard's verdict (a refusal, the board's login, OAuth's 404), and a POST's body read as a message
 * (refused when it nests too deep, before anything parses it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tooDeepAnswer } from '../message-depth.js';
import { readBody } from './body.js';
import type { Verdict } from './guard.js';

/** A JSON-RPC error response: its id is the request's when it could be read, else null. */
interface ErrorAnswer {
  jsonrpc: '2.0';
  error: { code: number; message: string };
  id: string | number | null;
}

/** Answers a JSON-RPC error response with an HTTP status (nothing when an answer has begun already). */
function rpcAnswer(res: ServerResponse, status: number, answer: ErrorAnswer, headers = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(answer));
}

/** Answers a JSON-RPC error with an HTTP status, id null (nothing when an answer has begun already). */
export function rpcError(res: ServerResponse, status: number, code: number, message: string, headers = {}): void {
  rpcAnswer(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
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

/**
 * The JSON-RPC body of a POST, or undefined when the request was answered: 413 past `limit`; 400
 * with -32600 for a body that nests deeper than `MAX_MESSAGE_DEPTH` (with the message's id when it
 * can be read), judged on the text before the parse, so nothing walks it (the SDK's recursive
 * serialising and validation overflowed the stack); 400 with -32700 for a body that is not JSON.
 */
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
  const tooDeep = tooDeepAnswer(read.text);
  if (tooDeep) return rpcAnswer(res, 400, tooDeep);
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
