/** The board's HTTP routes: the prebuilt page, its event stream, its state, its answers and its messages to agents. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBody } from '../http/body.js';
import { nestingProblem } from '../message-depth.js';
import { Board, type BoardAnswer } from './board.js';

/** The largest answer body the board takes, in bytes. */
const ANSWER_LIMIT = 64 * 1024;

/**
 * The largest message body the board takes, in bytes: room for the longest text a store takes
 * (64 000 characters) in UTF-8 and JSON escapes, so a text past that bound still reaches the
 * store and gets the store's own words (`send: text: expected at most 64000 characters, …`).
 */
const MESSAGE_LIMIT = 512 * 1024;

/** The board these routes serve. */
export { Board };

/** The folder of this package (the one with its package.json), from the source or the bundle alike. */
function packageDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** This package's folder (dist/ holds the built pages). */
export const PACKAGE_DIR = packageDir();

/** The page, built by Vite into dist/board and shipped inside the package. */
export const BOARD_DIR = join(PACKAGE_DIR, 'dist', 'board');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/**
 * Serves one board request (anything but /mcp), after the server's Host, Origin and token checks;
 * `person`: who the request's board token names (a table of agents), recorded with an answer and
 * as the sender of a message.
 */
export async function serveBoard(
  board: Board,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  person?: string,
): Promise<void> {
  if (path === '/board/events' && req.method === 'GET') return board.attach(res);
  if (path === '/board/state' && req.method === 'GET') return json(res, 200, await board.state());
  if (path === '/board/answer' && req.method === 'POST') {
    let body: { id?: unknown; answer?: unknown; decline?: unknown };
    try {
      const read = await readBody(req, ANSWER_LIMIT);
      if ('tooLarge' in read) return json(res, 413, { error: `expected a body of at most ${ANSWER_LIMIT} bytes` });
      const tooDeep = nestingProblem(read.text);
      if (tooDeep) return json(res, 400, { error: `the body ${tooDeep}` });
      body = JSON.parse(read.text) as typeof body;
    } catch {
      return json(res, 400, { error: 'expected a JSON body { id, answer } or { id, decline: true }' });
    }
    if (typeof body?.id !== 'string' || (typeof body.answer !== 'string' && body.decline !== true)) {
      return json(res, 400, { error: 'expected { id: string, answer: string } or { id: string, decline: true }' });
    }
    const answer: BoardAnswer = {
      ...(body.decline === true ? { decline: true as const } : { answer: body.answer as string }),
      ...(person === undefined ? {} : { person }),
    };
    return board.answer(body.id, answer)
      ? json(res, 200, { ok: true })
      : json(res, 404, { error: 'that question is no longer open: it was answered elsewhere, withdrawn or timed out' });
  }
  if (path === '/board/message' && req.method === 'POST') {
    let body: unknown;
    try {
      const read = await readBody(req, MESSAGE_LIMIT);
      if ('tooLarge' in read) return json(res, 413, { error: `expected a body of at most ${MESSAGE_LIMIT} bytes` });
      const tooDeep = nestingProblem(read.text);
      if (tooDeep) return json(res, 400, { error: `the body ${tooDeep}` });
      body = JSON.parse(read.text);
    } catch {
      return json(res, 400, { error: 'expected a JSON body { list, to, message, taskId? }' });
    }
    const { status, answer } = await board.message(body, person);
    return json(res, status, answer);
  }
  if (req.method !== 'GET') return json(res, 405, { error: `${req.method} is not served here` });
  const file = path === '/' ? 'index.html' : normalize(path).replace(/^[/\\]+/, '');
  if (file.startsWith('..')) return json(res, 404, { error: 'not found' });
  try {
    const content = await readFile(join(BOARD_DIR, file));
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': file === 'index.html' ? 'no-store' : 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
    });
    res.end(content);
  } catch {
    json(res, 404, { error: `not found: ${path}` });
  }
}
