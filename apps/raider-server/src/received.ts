/**
 * How the server's own error messages describe a value a caller sent (CONTRIBUTING: one wording
 * per package): `nothing` for a missing value, JSON up to 80 characters, else its kind and size,
 * so an error never echoes a huge value back into a model's context.
 */

/** Longest value quoted whole, in characters of JSON. */
const QUOTE_LIMIT = 80;

/**
 * `nothing`, the JSON of `value` up to 80 characters, else `a string of 1000 characters`, `an
 * array of 12 items`, `an object with 3 keys`.
 */
export function received(value: unknown): string {
  if (value === undefined) return 'nothing';
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json !== undefined && json.length <= QUOTE_LIMIT) return json;
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (typeof value === 'object' && value !== null) return `an object with ${Object.keys(value).length} keys`;
  return `a value of type ${typeof value}`;
}
