/**
 * The one reader of request bodies, for /mcp and the board. It buffers at most `limit` bytes: a
 * body past the limit is read on and dropped (the client still gets its answer, and memory stays
 * bounded whatever it sends), and the caller answers 413.
 */
import type { IncomingMessage } from 'node:http';

/** What a body read gave: its text, or the news that it passed the limit (and was dropped). */
export type Body = { text: string } | { tooLarge: true };

/**
 * Reads `req`'s body as UTF-8 text, keeping at most `limit` bytes. Resolves `{ tooLarge: true }`
 * as soon as the body passes the limit (what was kept is freed; the rest is drained unread); rejects
 * when the request breaks off. A JSON body is measured with `nestingProblem` (message-depth.ts)
 * before it is parsed: whatever walks the parsed value next may be recursive.
 *
 * @example
 * const body = await readBody(req, 1024 * 1024);
 * if ('tooLarge' in body) return answer413(res);
 * const tooDeep = nestingProblem(body.text);
 * if (tooDeep) return answer400(res, `the body ${tooDeep}`);
 * const message = JSON.parse(body.text);
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      if (!settled) {
        settled = true;
        chunks = [];
        resolve({ tooLarge: true });
      }
      // Past the limit: keep reading so the client can read the 413, but keep nothing.
    };
    req.on('data', onData);
    req.once('end', () => {
      if (!settled) {
        settled = true;
        resolve({ text: Buffer.concat(chunks).toString('utf8') });
      }
    });
    req.once('error', (error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    });
  });
}
