/**
 * How an error message describes a value a caller sent: the one describer of the raider packages.
 * Short values are quoted as JSON; long ones are described by kind and size, so an error never
 * echoes a huge value back into a model's context or a log. What is quoted is one plain line:
 * the characters JSON leaves as they are but that could reorder or break what a reader sees
 * (bidi controls, C1 controls, DEL, line and paragraph separators) are written as `\uXXXX`, so the
 * quote is still the JSON of the value.
 *
 * The packages word the rest in four ways, each pinned by their tests, chosen with `by`; new code
 * takes the default.
 */

/** Longest quote, in characters of (escaped) JSON. */
export const QUOTE_LIMIT = 80;

/** Characters of a long string quoted as its excerpt. */
const EXCERPT = 30;

// Characters JSON.stringify leaves raw that could reorder a line (bidi controls and marks), break
// it (U+2028, U+2029, NEL) or control a terminal (C1 controls, DEL). C0 controls JSON escapes itself.
const UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `json` with every unsafe character written as `\uXXXX` (still the same JSON value). */
function visible(json: string): string {
  return json.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The JSON of `value`, safe to show, or undefined when it has none (a function, a cycle, a BigInt). */
function quoted(value: unknown): string | undefined {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? undefined : visible(json);
  } catch {
    return undefined;
  }
}

/** How `received` words a value. */
export interface ReceivedOptions {
  /**
   * - `'value'` (the default): the JSON of any value that fits in 80 characters (`"done"`,
   *   `[1,2]`, `null`, `3`); else its kind and size (`a string of 1000 characters`, `an array of
   *   12 items`, `an object with 3 keys`), or its type when it has no JSON (`a value of type
   *   function`). The tools' answers (todo-tools, ask-tools) and the server's.
   * - `'type'`: a string quoted when it fits, else its size; any other value by its type alone
   *   (`number`, `boolean`, `object`, `null`, `an array`). The MessageStore contract and the
   *   registry of `@raider/tasks-registry`, and the stores that keep that contract.
   * - `'kind'`: nothing quoted, only the kind (`a string`, `a number`, `an object`, `an array of
   *   2 items`, `null`). For a protocol message whose value may be anything (the server's guard
   *   of `tools/call`).
   * - `'javascript'`: in JavaScript's words, for an argument of a library function (`undefined`,
   *   `null`, `an array`, `an instance of Map`, `the string "bash"`, `number 5`). `@raider/tool-names`.
   */
  by?: 'value' | 'type' | 'kind' | 'javascript';
  /**
   * With `'value'`: a long string's first 30 characters follow its size, as a quote left open
   * (`a string of 1000000 characters ("aaaa…")`). Off by default.
   */
  excerpt?: boolean;
}

/** A long string's size, and with `excerpt` its first 30 characters. */
function sized(text: string, excerpt: boolean | undefined): string {
  const size = `a string of ${text.length} characters`;
  if (!excerpt) return size;
  return `${size} (${visible(JSON.stringify(text.slice(0, EXCERPT))).slice(0, -1)}…")`;
}

/** The `'type'` wording. */
function byType(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'string') return typeof value;
  const json = quoted(value) as string;
  return json.length <= QUOTE_LIMIT ? json : sized(value, false);
}

/** The `'kind'` wording. */
function byKind(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The `'javascript'` wording. */
function byJavaScript(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'an unknown class'}`;
  if (typeof value === 'string') {
    const json = quoted(value) as string;
    return json.length <= QUOTE_LIMIT ? `the string ${json}` : sized(value, false);
  }
  return `${typeof value} ${String(value)}`;
}

/**
 * A short, safe description of a received value, for the `received …` of an error message: it
 * quotes at most 80 characters of JSON whatever the value, only as one plain line (see the
 * module), and never throws. `options.by` picks one of the packages' four wordings (default
 * `'value'`: `nothing`, JSON up to 80 characters, else kind and size).
 *
 * @example received('done')                          // '"done"'
 * @example received('x'.repeat(500), { excerpt: true }) // 'a string of 500 characters ("xxx…")'
 * @example received([1, 2], { by: 'type' })           // 'an array'
 * @example received('ls', { by: 'javascript' })       // 'the string "ls"'
 */
export function received(value: unknown, options: ReceivedOptions = {}): string {
  if (options.by === 'type') return byType(value);
  if (options.by === 'kind') return byKind(value);
  if (options.by === 'javascript') return byJavaScript(value);
  if (value === undefined) return 'nothing';
  const json = quoted(value);
  if (json !== undefined && json.length <= QUOTE_LIMIT) return json;
  if (typeof value === 'string') return sized(value, options.excerpt);
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (typeof value === 'object' && value !== null) return `an object with ${Object.keys(value).length} keys`;
  return `a value of type ${typeof value}`;
}
