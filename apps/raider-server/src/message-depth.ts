/**
 * The one depth limit on what a client sends: a JSON-RPC message (over HTTP in both eras, or a
 * line over stdio) and a board body may nest arrays and objects at most `MAX_MESSAGE_DEPTH` levels.
 *
 * V8's `JSON.parse` copes with any depth, but what walks the value next does not: the SDK
 * serialises an HTTP body again (`JSON.stringify`) and validates every message with zod, both
 * recursive, and 5 000 nested arrays overflowed the stack ("Maximum call stack size exceeded",
 * answered 500). So every message's text is measured first, by one scan that counts the brackets
 * outside strings: no parse and no recursion, at the cost of reading the text once (about a
 * millisecond per megabyte, less than `JSON.parse`). The text, not the parsed value, because over
 * stdio the SDK parses and validates a line in one step: its text is all there is before that.
 */

/**
 * The deepest a message from a client may nest arrays and objects, in levels (`{}` is 1). Twice
 * what real calls use and more: a task_create whose metadata nests 32 levels (the default of
 * `--max-metadata-depth`) is 35 levels deep as a message (message, params, arguments, then the
 * metadata), and the 2026 era's envelope adds a few levels in `_meta`. Far below what overflows
 * the SDK's recursive walks (thousands).
 */
export const MAX_MESSAGE_DEPTH = 64;

const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The index of the quote that closes the string opened at `quote`, or -1 when it never closes. */
function stringEnd(text: string, quote: number): number {
  let from = quote + 1;
  for (;;) {
    const end = text.indexOf('"', from);
    if (end === -1) return -1;
    // A quote after an odd run of backslashes is escaped: the string goes on.
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return end;
    from = end + 1;
  }
}

/** Called for each bracket outside strings: where it is, the level it opens or closes, which of the two. */
type BracketVisit = (index: number, level: number, opens: boolean) => void;

/**
 * Reads `text` once, from bracket to bracket outside strings (strings are skipped whole with
 * `indexOf`), telling `visit` of each; returns the deepest level reached. A closing bracket with
 * nothing open is ignored, and an unclosed string ends the scan (neither is JSON: the parse that
 * follows refuses it).
 */
function scanBrackets(text: string, visit?: BracketVisit): number {
  let level = 0;
  let deepest = 0;
  let at = 0;
  while (at < text.length) {
    const quote = text.indexOf('"', at);
    const plainEnd = quote === -1 ? text.length : quote;
    for (; at < plainEnd; at += 1) {
      const code = text.charCodeAt(at);
      if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
        level += 1;
        if (level > deepest) deepest = level;
        visit?.(at, level, true);
      } else if ((code === CLOSE_ARRAY || code === CLOSE_OBJECT) && level > 0) {
        visit?.(at, level, false);
        level -= 1;
      }
    }
    if (quote === -1) break;
    const end = stringEnd(text, quote);
    if (end === -1) break;
    at = end + 1;
  }
  return deepest;
}

/**
 * How deep the JSON `text` nests arrays and objects: the most brackets open at once outside
 * strings (`1` is 0, `[]` and `{}` are 1, `{"a":[1]}` is 2; a bracket inside a string does not
 * count). Iterative and linear; it does not check that `text` is JSON (an unclosed `[[[` is 3).
 *
 * @example
 * nestingDepth('{"params":{"tags":["[not a level]"]}}') // 3
 */
export function nestingDepth(text: string): number {
  return scanBrackets(text);
}

/**
 * What is wrong with `text` for its depth, as the end of a sentence about it, or undefined when
 * it nests at most `MAX_MESSAGE_DEPTH` levels.
 *
 * @example
 * `the body ${nestingProblem(text)}`
 * // 'the body nests too deep: expected at most 64 levels of arrays and objects, received 10000 levels'
 */
export function nestingProblem(text: string): string | undefined {
  const depth = nestingDepth(text);
  if (depth <= MAX_MESSAGE_DEPTH) return undefined;
  return `nests too deep: expected at most ${MAX_MESSAGE_DEPTH} levels of arrays and objects, received ${depth} levels`;
}

/** The JSON-RPC error a message that nests too deep is answered with. */
export interface TooDeepAnswer {
  jsonrpc: '2.0';
  error: { code: -32600; message: string };
  /** The message's own id when it is a request (a `method` and a string or number `id`), else null. */
  id: string | number | null;
}

/**
 * The id of the request `text`, read without parsing what it nests: every value below the top
 * level is cut out (made `null`, which is no id) before the parse, so a message of any depth costs
 * only its size. Null when it is no request: a batch, a bare array, a notification (no id), a
 * response (no method: an answer carrying its id would read, to the client, as the answer to its own
 * request of that id), not JSON.
 */
function requestId(text: string): string | number | null {
  const kept: string[] = [];
  let from = 0;
  let cutting = false;
  scanBrackets(text, (index, level, opens) => {
    if (level !== 2) return;
    if (opens) {
      kept.push(text.slice(from, index), 'null');
      cutting = true;
    } else {
      from = index + 1;
      cutting = false;
    }
  });
  // A value below the top level that never closes: not JSON, and no id to read.
  if (cutting) return null;
  kept.push(text.slice(from));
  try {
    const message: unknown = JSON.parse(kept.join(''));
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method !== 'string') return null;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/**
 * The JSON-RPC error (-32600 Invalid Request) that answers the message `text` when it nests
 * deeper than `MAX_MESSAGE_DEPTH`, with the message's id when it is a request (else null);
 * undefined when it does not nest too deep. Judged before anything parses or walks the message,
 * so nothing else reads one that is refused.
 *
 * @example
 * tooDeepAnswer(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"x":${'['.repeat(100)}${']'.repeat(100)}}}`)
 * // { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: the message nests too deep: expected at
 * //   most 64 levels of arrays and objects, received 102 levels' }, id: 7 }
 */
export function tooDeepAnswer(text: string): TooDeepAnswer | undefined {
  const problem = nestingProblem(text);
  if (problem === undefined) return undefined;
  return {
    jsonrpc: '2.0',
    error: { code: -32600, message: `Invalid request: the message ${problem}` },
    id: requestId(text),
  };
}
