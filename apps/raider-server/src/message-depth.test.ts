// The one depth limit on what a client sends: the scan counts the brackets outside strings as
// deep as a recursive walk of the parsed value would, and the answer to a message past the limit
// carries the message's own id when it is a request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_DEPTH, nestingDepth, nestingProblem, tooDeepAnswer } from './message-depth.js';

/** The depth of a parsed value, walked recursively (the reference the scan must agree with). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** Strings that look like brackets, quotes and escapes: what could fool a scan that ignores strings. */
const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ':', ',', 'a', '\u00e9', '\u2028') });

describe('nestingDepth', () => {
  it('counts the levels of arrays and objects, and nothing inside strings', () => {
    for (const [text, depth] of [
      ['1', 0],
      ['"[[["', 0],
      ['[]', 1],
      ['{}', 1],
      ['{"a":[1]}', 2],
      ['[[],[[]],{}]', 3],
      ['{"a":"]]]}}}","b":[["[{"]]}', 3],
      ['["\\"[[["]', 1], // an escaped quote does not end the string
      ['["\\\\",[[]]]', 3], // an escaped backslash does: the brackets after it count
      ['["\\\\\\"[["]', 1], // three backslashes: the quote is escaped again
      [' [ [ ] ] ', 2],
      ['', 0],
    ] as const) {
      expect(nestingDepth(text), text).toBe(depth);
    }
  });

  it('agrees with a recursive walk of the parsed value, for any JSON', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        tricky,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('value')),
        fc.dictionary(tricky, tie('value')),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const text = JSON.stringify(value);
        expect(nestingDepth(text)).toBe(depthOf(value));
        expect(nestingDepth(JSON.stringify(value, null, 2))).toBe(depthOf(value));
      }),
      { numRuns: 300 },
    );
  });

  it('measures any depth without recursion, and text that is not JSON without failing', () => {
    expect(nestingDepth(arrays(1_000_000))).toBe(1_000_000);
    expect(nestingDepth(objects(100_000))).toBe(100_000);
    expect(nestingDepth('['.repeat(500))).toBe(500); // never closed
    expect(nestingDepth(']]]}}[')).toBe(1); // closers with nothing open are ignored
    expect(nestingDepth('["never closed [[[')).toBe(1); // an unclosed string ends the scan
  });
});

describe('nestingProblem', () => {
  it('is undefined up to the limit and says what was expected and received past it', () => {
    expect(MAX_MESSAGE_DEPTH).toBe(64);
    expect(nestingProblem(arrays(64))).toBeUndefined();
    expect(nestingProblem(arrays(65))).toBe(
      'nests too deep: expected at most 64 levels of arrays and objects, received 65 levels',
    );
    expect(nestingProblem(objects(10_000))).toBe(
      'nests too deep: expected at most 64 levels of arrays and objects, received 10000 levels',
    );
  });
});

describe('tooDeepAnswer', () => {
  const message = 'Invalid request: the message nests too deep: expected at most 64 levels of arrays and objects';

  it('answers -32600 with the id of the message when it is a request', () => {
    const text = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"x":${arrays(10_000)}}}}`;
    expect(tooDeepAnswer(text)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: `${message}, received 10003 levels` },
      id: 7,
    });
    // The id after the deep part, a string id, an id that only looks like one inside a string.
    expect(tooDeepAnswer(`{"params":${objects(100)},"id":"req-1","method":"m"}`)?.id).toBe('req-1');
    expect(tooDeepAnswer(`{"id":0,"method":"m","params":${objects(100)}}`)?.id).toBe(0);
    expect(tooDeepAnswer(`{"method":"m \\"id\\":3","params":${arrays(100)}}`)?.id).toBeNull();
  });

  it('answers with id null to anything but a request: a batch, a bare nest, a notification, a response, an id that is no id, not JSON', () => {
    for (const text of [
      `[{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"x":${arrays(100)}}}]`,
      arrays(10_000),
      objects(10_000),
      `{"jsonrpc":"2.0","method":"notifications/x","params":${arrays(100)}}`,
      // The client's answer to the server's request 0: an error with id 0 would answer the client's own request 0.
      `{"jsonrpc":"2.0","id":0,"result":{"content":${arrays(100)}}}`,
      `{"id":{"nested":true},"method":"m","params":${arrays(100)}}`,
      `{"id":true,"method":"m","params":${arrays(100)}}`,
      `{"id":5,"method":"m","params":${'['.repeat(100)}`, // never closed
      `{"id":5,"method":"m" "params":${arrays(100)}}`, // not JSON
    ]) {
      const answer = tooDeepAnswer(text);
      expect(answer?.error.code, text.slice(0, 40)).toBe(-32600);
      expect(answer?.id, text.slice(0, 40)).toBeNull();
    }
  });

  it('is undefined for a message within the limit, whatever its size', () => {
    const wide = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm', params: { items: Array(10_000).fill([[1]]) } });
    expect(tooDeepAnswer(wide)).toBeUndefined();
    expect(tooDeepAnswer(`{"id":1,"method":"m","params":${arrays(63)}}`)).toBeUndefined();
    expect(tooDeepAnswer(`{"id":1,"method":"m","params":${arrays(64)}}`)?.id).toBe(1);
  });
});
