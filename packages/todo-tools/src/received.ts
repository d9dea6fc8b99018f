/**
 * How error messages describe a value a caller sent: short values quoted as JSON, long ones by
 * kind and size with a short excerpt, so an error never echoes a huge value back into a model's
 * context (`received a string of 1000000 characters ("aaaa…")`).
 */
import { neutralise } from './todo/todo-text.js';

/** Longest quoted value, in characters. */
const QUOTE_LIMIT = 80;
/** Characters of a long string quoted as an excerpt. */
const EXCERPT = 30;

/** JSON of `value`, or undefined when it has none (a function, a cycle, a BigInt). */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * A short description of a received value: `nothing` for undefined, JSON up to 80 characters, else
 * its kind and size (`a string of 1000000 characters ("abc…")`, `an array of 12 items`, `an object
 * with 3 keys`). Control and bidi characters are neutralised, so the text is one plain line.
 */
export function received(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = jsonOf(value);
  if (json !== undefined && json.length <= QUOTE_LIMIT) return neutralise(json);
  if (typeof value === 'string') {
    const excerpt = neutralise(JSON.stringify(value.slice(0, EXCERPT)).slice(0, -1));
    return `a string of ${value.length} characters (${excerpt}…")`;
  }
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (typeof value === 'object' && value !== null) return `an object with ${Object.keys(value).length} keys`;
  return `a value of type ${typeof value}`;
}
