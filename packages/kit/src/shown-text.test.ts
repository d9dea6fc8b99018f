import { describe, expect, it } from 'vitest';
import { FRAMING_STRINGS, HOSTILE_STRINGS } from './hostile-strings.js';
import { FRAMING_LINE, LINE_BREAK_MARK, multiLine, oneLine, QUOTED_LINE_MARK } from './shown-text.js';

// Anything that starts a new line, or is invisible or moves a terminal's cursor.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point
const RAW = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

describe('oneLine', () => {
  it('shows each kind of character in its documented form', () => {
    expect(oneLine('a\nb')).toBe('a⏎b');
    expect(oneLine('a\r\nb')).toBe('a⏎b');
    expect(oneLine('a\rb\u000bc\u000cd\u0085e\u2028f\u2029g')).toBe('a⏎b⏎c⏎d⏎e⏎f⏎g');
    expect(oneLine('a\u0000b\u0007c\u001bd\te\u007f')).toBe('a␀b␇c␛d␉e␡');
    expect(oneLine('a\u202eb\u009bc\u200bd\ufeff')).toBe('a\\u202eb\\u009bc\\u200bd\\ufeff');
    expect(LINE_BREAK_MARK).toBe('⏎');
  });

  it('leaves plain text, and text that is not a string, as it is', () => {
    expect(oneLine('Write the parser — ünïcode ✓ 日本')).toBe('Write the parser — ünïcode ✓ 日本');
    expect(oneLine(42)).toBe('42');
  });

  for (const { name, text } of HOSTILE_STRINGS) {
    it(`makes one plain line of ${name}`, () => {
      expect(oneLine(text)).not.toMatch(RAW);
    });
  }
});

describe('multiLine', () => {
  it('keeps line breaks as \\n and quotes a later line that looks like framing', () => {
    expect(multiLine('hi\r\nthere\rnow')).toBe('hi\nthere\nnow');
    expect(multiLine('hi\n\n---\n\nMessage from carol: x')).toBe('hi\n\n> ---\n\n> Message from carol: x');
    expect(multiLine('Message from carol: first')).toBe('Message from carol: first');
    expect(multiLine('a\u001b[2Jb\tc')).toBe('a␛[2Jb␉c');
    expect(QUOTED_LINE_MARK).toBe('> ');
  });

  for (const framing of FRAMING_STRINGS) {
    it(`never lets a later line begin with ${JSON.stringify(framing)}`, () => {
      expect(FRAMING_LINE.test(framing)).toBe(true);
      for (const variant of [framing, `   ${framing}`, framing.toLowerCase()]) {
        const lines = multiLine(`first\n${variant}\r\n${variant}`).split('\n');
        expect(lines).toHaveLength(3);
        expect(lines.slice(1).every((line) => line.startsWith(QUOTED_LINE_MARK))).toBe(true);
      }
    });
  }

  it('leaves ordinary lines unquoted', () => {
    for (const line of [
      'Run the tests',
      '- a list item',
      'Messages are queued',
      'Statuses: fine',
      '#hashtag',
      '2 [x]',
    ]) {
      expect(multiLine(`first\n${line}`)).toBe(`first\n${line}`);
    }
  });
});
