/**
 * Where an agent table's text stops parsing, said without quoting it: the parsers' own messages
 * quote the text around the error (V8's `Unexpected token 'x', "{"token": "s3cr…" is not valid
 * JSON`, smol-toml's code block of three lines), and that text may be a token. What is kept is the
 * parser's description and a line and column.
 */
import { TomlError } from 'smol-toml';

// JSON's whitespace, the characters after a backslash in a string, digits.
const WHITESPACE = /[ \t\n\r]*/y;
const ESCAPE = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;
const DIGITS = /[0-9]*/y;

/** The offset after the whitespace at `offset`. */
function skipWhitespace(text: string, offset: number): number {
  WHITESPACE.lastIndex = offset;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
}

/**
 * The scanners below return the offset after what they read, or `failedAt(offset)` (a negative
 * number) for the offset where it breaks: `whereFailed` turns it back.
 */
const failedAt = (offset: number): number => -offset - 1;
const whereFailed = (result: number): number => -result - 1;

/**
 * The offset after the string at `offset` (its opening quote), or failedAt(the character that
 * breaks it): a control character, a bad escape, or the end of the text.
 */
function stringEnd(text: string, offset: number): number {
  let at = offset + 1;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === 0x22) return at + 1;
    if (code < 0x20) return failedAt(at);
    if (code === 0x5c) {
      ESCAPE.lastIndex = at + 1;
      if (!ESCAPE.test(text)) return failedAt(at + 1);
      at = ESCAPE.lastIndex;
    } else at += 1;
  }
  return failedAt(at);
}

/** The offset after the digits at `offset` (one at least), or failedAt(offset). */
function digitsEnd(text: string, offset: number): number {
  DIGITS.lastIndex = offset;
  DIGITS.test(text);
  return DIGITS.lastIndex > offset ? DIGITS.lastIndex : failedAt(offset);
}

/** The offset after the number at `offset`, or failedAt(where it breaks). */
function numberEnd(text: string, offset: number): number {
  const sign = text[offset] === '-' ? offset + 1 : offset;
  let at = text[sign] === '0' ? sign + 1 : digitsEnd(text, sign);
  if (at >= 0 && text[at] === '.') at = digitsEnd(text, at + 1);
  if (at >= 0 && (text[at] === 'e' || text[at] === 'E')) {
    at = digitsEnd(text, text[at + 1] === '+' || text[at + 1] === '-' ? at + 2 : at + 1);
  }
  return at;
}

/**
 * The offset after the scalar at `offset` (string, number, true, false, null), or failedAt(the
 * first character that breaks it), as V8 places the error: `nul"` at the `"`, `1.` after the dot.
 */
function scalarEnd(text: string, offset: number): number {
  const char = text[offset];
  if (char === '"') return stringEnd(text, offset);
  if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return numberEnd(text, offset);
  const word = ['true', 'false', 'null'].find((literal) => literal[0] === char);
  if (word === undefined) return failedAt(offset);
  for (let i = 1; i < word.length; i += 1) if (text[offset + i] !== word[i]) return failedAt(offset + i);
  return offset + word.length;
}

/** What the JSON grammar expects next. */
type Expecting = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'comma-or-close';

/**
 * The offset of the first character of `text` where JSON's grammar fails, for a text JSON.parse
 * refused (the length when the text ends early). A loop with a stack, not recursion, so a
 * hostile nesting of a million `[` cannot overflow the call stack.
 */
export function jsonErrorOffset(text: string): number {
  const open: string[] = [];
  let at = 0;
  let expecting: Expecting = 'value';
  for (;;) {
    at = skipWhitespace(text, at);
    const char = text[at];
    const closer = open.at(-1) === '{' ? '}' : ']';
    if ((expecting === 'value-or-close' || expecting === 'key-or-close') && char === closer) {
      open.pop();
      at += 1;
      expecting = 'comma-or-close';
    } else if (expecting === 'comma-or-close') {
      if (open.length === 0 || (char !== ',' && char !== closer)) return at;
      at += 1;
      if (char === ',') expecting = closer === '}' ? 'key' : 'value';
      else open.pop();
    } else if (expecting === 'key' || expecting === 'key-or-close') {
      if (text[at] !== '"') return at;
      const end = stringEnd(text, at);
      if (end < 0) return whereFailed(end);
      at = skipWhitespace(text, end);
      if (text[at] !== ':') return at;
      at += 1;
      expecting = 'value';
    } else if (char === '{' || char === '[') {
      open.push(char);
      at += 1;
      expecting = char === '{' ? 'key-or-close' : 'value-or-close';
    } else {
      const end = scalarEnd(text, at);
      if (end < 0) return whereFailed(end);
      at = end;
      expecting = 'comma-or-close';
    }
  }
}

/** `line L column C` (both from 1) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line} column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * Why JSON.parse refused `text` (it threw `error`), as `<what> at line L column C`, without
 * the parser's quote of the text. V8 gives a position for most errors; for the rest (an
 * unexpected token, the end of the text) it is found here.
 */
export function jsonProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = / at position (\d+)/.exec(message);
  const ended = message.startsWith('Unexpected end');
  const offset = position ? Number(position[1]) : ended ? text.length : jsonErrorOffset(text);
  const what = ended
    ? 'the text ends before the JSON does'
    : message.startsWith('Unexpected token')
      ? 'an unexpected character'
      : message
          .replace(/ at position \d+[\s\S]*$/, '')
          .replace(/ in JSON$/, '')
          .replace(/, "[\s\S]*$/, '');
  return `${what} at ${lineColumn(text, offset)}`;
}

/** Why smol-toml refused a text (it threw `error`), as `<what> at line L column C`, without its code block. */
export function tomlProblem(error: unknown): string {
  if (!(error instanceof TomlError))
    return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const what = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
  return `${what} at line ${error.line} column ${error.column}`;
}
