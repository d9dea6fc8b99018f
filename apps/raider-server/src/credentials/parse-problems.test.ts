// Where a table's text stops parsing: the line and column told, the parsers' quotes of the text
// left out (they may quote a token).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, jsonProblem, lineColumn, tomlProblem } from './parse-problems.js';

/** What JSON.parse throws for `text`. */
function thrown(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${JSON.stringify(text)} not to parse, received a value`);
}

describe('jsonErrorOffset', () => {
  it('finds the first character the grammar does not allow', () => {
    const cases: [string, number][] = [
      ['[1,]', 3],
      ['[1 2]', 3],
      ['{"a": tru}', 9],
      ['{"a" 1}', 5],
      ['{,}', 1],
      ['{"a": 1,}', 8],
      ['[', 1],
      ['', 0],
      ['   ', 3],
      ['[] x', 3],
      ['[{"a": [1, {"b": null}]}, -]', 27],
      ['01', 1],
      ['nul"k"', 3],
      ['[1.]', 3],
      ['-', 1],
      ['[1e+]', 4],
    ];
    for (const [text, offset] of cases) expect([text, jsonErrorOffset(text)]).toEqual([text, offset]);
  });

  it('takes a million nested brackets without overflowing the stack', () => {
    expect(jsonErrorOffset('['.repeat(1_000_000))).toBe(1_000_000);
  });

  it('agrees with V8 wherever V8 gives a position', () => {
    const piece = fc.constantFrom(
      '[',
      ']',
      '{',
      '}',
      ',',
      ':',
      '"k"',
      '1',
      '0',
      '-',
      '.',
      'e',
      'true',
      'nul',
      ' ',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        let message: string;
        try {
          JSON.parse(text);
          return;
        } catch (error) {
          message = (error as Error).message;
        }
        const position = / at position (\d+)/.exec(message);
        if (position) expect(jsonErrorOffset(text)).toBe(Number(position[1]));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('jsonProblem and tomlProblem', () => {
  it('say what and where, never the text around it', () => {
    const secret = 'abcdefghijklmnopqrstuvwxyz';
    const cases: [string, string][] = [
      [`["${secret}",]`, 'an unexpected character at line 1 column 31'],
      [`["${secret}" x]`, "Expected ',' or ']' after array element at line 1 column 31"],
      [`["${secret}"] ${secret}`, 'Unexpected non-whitespace character after JSON at line 1 column 32'],
      [`{"a":\n"${secret}"`, "Expected ',' or '}' after property value at line 2 column 29"],
      [`["${secret}`, 'Unterminated string at line 1 column 29'],
      ['', 'the text ends before the JSON does at line 1 column 1'],
    ];
    for (const [text, problem] of cases) {
      expect(jsonProblem(thrown(text), text)).toBe(problem);
    }
  });

  it('a TOML error is its description and place, without the code block', async () => {
    const { parse } = await import('smol-toml');
    let error: unknown;
    try {
      parse('a = 1\nb = "secret-secret-secret');
    } catch (caught) {
      error = caught;
    }
    expect(tomlProblem(error)).toBe('unfinished string at line 2 column 5');
    expect(tomlProblem(new RangeError('Maximum call stack size exceeded'))).toBe('Maximum call stack size exceeded');
  });

  it('lineColumn counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toBe('line 1 column 1');
    expect(lineColumn('ab\ncd', 4)).toBe('line 2 column 2');
  });
});
