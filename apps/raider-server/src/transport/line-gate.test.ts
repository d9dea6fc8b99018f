// The gate in front of the SDK's stdio reader: whole lines within the depth limit are passed on
// byte for byte and in order, however stdin cuts them into chunks; a deeper line is dropped and
// answered; a line past the size bound is handed to the SDK's reader to refuse as before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TooDeepAnswer } from '../message-depth.js';
import { LineGate } from './line-gate.js';

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** A gate whose outlets record what came out, in one list so the order shows. */
function recordingGate(maxLineBytes = 1024 * 1024) {
  const out: ({ passed: string } | { refused: TooDeepAnswer })[] = [];
  const gate = new LineGate(maxLineBytes, {
    pass: (bytes) => out.push({ passed: bytes.toString('utf8') }),
    refuse: (answer) => out.push({ refused: answer }),
  });
  /** The lines passed on, one by one (a pass may hold several), and the refusals' ids in place. */
  const lines = () =>
    out.flatMap((item) =>
      'passed' in item ? item.passed.split('\n').slice(0, -1) : [`refused ${JSON.stringify(item.refused.id)}`],
    );
  return { gate, out, lines };
}

/** `text` cut at `cuts` (positions, any order, repeats allowed) into chunks. */
function chunked(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  return chunks;
}

describe('LineGate', () => {
  it('passes a run of whole lines on in one piece, byte for byte', () => {
    const { gate, out } = recordingGate();
    const text = '{"jsonrpc":"2.0","id":1,"method":"a"}\n{"id":"é 🚀","params":[[["x"]]]}\r\n\n';
    gate.take(Buffer.from(text));
    expect(out).toEqual([{ passed: text }]);
  });

  it('drops a line that nests too deep and answers it, between the lines before and after it', () => {
    const { gate, lines } = recordingGate();
    gate.take(
      Buffer.from(
        `{"id":1}\n{"jsonrpc":"2.0","id":2,"method":"m","params":{"x":${deep(10_000)}}}\n{"id":3}\n${deep(65)}\n{"id":4}\n`,
      ),
    );
    expect(lines()).toEqual(['{"id":1}', 'refused 2', '{"id":3}', 'refused null', '{"id":4}']);
  });

  it('holds a line until its newline, and judges it whole', () => {
    const { gate, out, lines } = recordingGate();
    const line = `{"id":9,"method":"m","params":${deep(100)}}`;
    gate.take(Buffer.from(line.slice(0, 60)));
    gate.take(Buffer.from(line.slice(60, 150)));
    expect(out).toEqual([]);
    gate.take(Buffer.from(`${line.slice(150)}\n{"id":10`));
    expect(lines()).toEqual(['refused 9']);
    gate.take(Buffer.from('}\n'));
    expect(lines()).toEqual(['refused 9', '{"id":10}']);
  });

  it('gives the same lines and answers however the input is cut into chunks (property)', () => {
    const text = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      `{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"arguments":{"x":${deep(80)}}}}`,
      '{"id":3,"params":{"text":"[[[[ \\" ]]]] é 🚀"}}',
      `${'{"a":'.repeat(70)}1${'}'.repeat(70)}`,
      `{"id":5,"params":${deep(63)}}`,
      '',
    ].join('\n');
    const expected = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      'refused "two"',
      '{"id":3,"params":{"text":"[[[[ \\" ]]]] é 🚀"}}',
      'refused null',
      `{"id":5,"params":${deep(63)}}`,
    ];
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const { gate, lines } = recordingGate();
        for (const chunk of chunked(text, cuts)) gate.take(chunk);
        expect(lines()).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('passes a line that grows past its bound on unjudged, for the SDK reader to refuse; clear forgets a line begun', () => {
    const { gate, out } = recordingGate(100);
    gate.take(Buffer.from('x'.repeat(60)));
    expect(out).toEqual([]);
    gate.take(Buffer.from('['.repeat(60)));
    expect(out).toEqual([{ passed: `${'x'.repeat(60)}${'['.repeat(60)}` }]);
    const cleared = recordingGate();
    cleared.gate.take(Buffer.from('{"id":1,'));
    cleared.gate.clear();
    cleared.gate.take(Buffer.from('{"id":2}\n'));
    expect(cleared.out).toEqual([{ passed: '{"id":2}\n' }]);
  });
});
