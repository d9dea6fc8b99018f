/**
 * How the question tools take their input over MCP: they check it themselves, so every rejection
 * reads `Error: <field>: expected …, received …` as in the other raider tools (not the SDK's
 * `MCP error -32602: Input validation error: …`), and an error never echoes a huge value back.
 * Clients see the real schema in tools/list (`advertised` of `@raider/kit/schemas`); the SDK lets
 * any object through. The same on both SDKs: only the JSON Schema dialect each one lists differs.
 */
import { received as describe } from '@raider/kit/received';

/**
 * A short description of a received value: the kit's one describer (`@raider/kit/received`) with
 * a long string's excerpt: `nothing` for undefined, JSON up to 80 characters, else its kind and
 * size (`a string of 1000000 characters ("abc…")`, `an array of 12 items`).
 */
export function received(value: unknown): string {
  return describe(value, { excerpt: true });
}
