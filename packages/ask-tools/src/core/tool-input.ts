/**
 * How the question tools take their input over MCP: they check it themselves, so every rejection
 * reads `Error: <field>: expected …, received …` as in the other raider tools (not the SDK's
 * `MCP error -32602: Input validation error: …`), and an error never echoes a huge value back.
 * Clients see the real schema in tools/list (advertised); the SDK lets any object through. The
 * same on both SDKs: only the JSON Schema dialect each one lists differs.
 */
import { received as describe } from '@raider/kit/received';
import { z } from 'zod';

/**
 * A short description of a received value: the kit's one describer (`@raider/kit/received`) with
 * a long string's excerpt: `nothing` for undefined, JSON up to 80 characters, else its kind and
 * size (`a string of 1000000 characters ("abc…")`, `an array of 12 items`).
 */
export function received(value: unknown): string {
  return describe(value, { excerpt: true });
}

/** The issues of a failed parse in one line, each as `field: message`, joined by `; `. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** The JSON Schema dialect an SDK lists tools in: draft-07 for v1, 2020-12 for v2. */
export type SchemaDialect = 'draft-7' | 'draft-2020-12';

/**
 * An input schema for `registerTool` that shows clients the JSON Schema of `schema` (an object
 * schema) and lets every object through the SDK's check; the tool checks with `schema` itself.
 * `dialect` is the one the SDK lists tools in, so the properties are written in it too.
 */
export function advertised(schema: z.ZodObject, dialect: SchemaDialect = 'draft-7'): z.ZodObject {
  const json = z.toJSONSchema(schema, { target: dialect, io: 'input' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const shape: Record<string, z.ZodType> = {};
  for (const [key, property] of Object.entries(json.properties ?? {})) {
    shape[key] = z.unknown().optional().meta(property);
  }
  const required = json.required?.length ? { required: json.required } : {};
  return z.looseObject(shape).meta({ additionalProperties: false, ...required });
}
