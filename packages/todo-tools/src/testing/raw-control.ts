/**
 * What the tests of issue 36 look for in a rendered line: a character a reader's terminal or text
 * layout would act on (a line break, a C0 or C1 control, DEL, a bidi control or mark, an invisible
 * separator). The kit's visible forms (`⏎`, a control picture, `\uXXXX`) are plain printable text.
 * Test support only: not part of any entry.
 */

// Single code points and ranges, as [first, last].
const RAW: readonly (readonly [number, number])[] = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200b, 0x200b],
  [0x200e, 0x200f],
  [0x2028, 0x2029],
  [0x202a, 0x202e],
  [0x2060, 0x2060],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];

/** The first raw control character of `text` as `U+XXXX`, or undefined when it has none. */
export function rawControlIn(text: string): string | undefined {
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (RAW.some(([first, last]) => code >= first && code <= last)) {
      return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  return undefined;
}
