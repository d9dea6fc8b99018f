/**
 * How this package's error messages describe a value a caller sent: the kit's one describer
 * (`@raider/kit/received`) in its default wording, a long string followed by a short excerpt
 * (`received a string of 1000000 characters ("aaaa…")`), so an error never echoes a huge value
 * back into a model's context and quotes only one plain line.
 */
import { received as describe } from '@raider/kit/received';

/**
 * A short description of a received value: `nothing` for undefined, JSON up to 80 characters, else
 * its kind and size (`a string of 1000000 characters ("abc…")`, `an array of 12 items`, `an object
 * with 3 keys`). Bidi and control characters are written as `\uXXXX`, so the text is one plain line.
 */
export function received(value: unknown): string {
  return describe(value, { excerpt: true });
}
