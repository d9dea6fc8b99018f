/**
 * How the raider tools show their zod schemas to MCP clients and word a failed parse. The SDK
 * checks a call's arguments against the input schema a tool was registered with, and answers a
 * mismatch in words of its own (`MCP error -32602: Input validation error: …`) outside the tool's
 * answer; after the call it checks the structured result against the output schema, which for a
 * whole list costs several times the call itself. The raider tools check their input themselves
 * (so every refusal reads `Error: <field>: expected …, received …`) and build their results from
 * checked state, so they register *advertised* schemas: what clients see in tools/list is exactly
 * the JSON Schema of the real one, and the SDK's own check lets any object through at the least
 * cost (no property to walk).
 *
 * Uses the zod of the package that bundles it (a peer of that package; see decision 0003).
 */
import { z } from 'zod';

/**
 * The issues of a failed parse in one line, each as `field: message` (`metadata: expected an
 * object of keys and values, received []`), or the message alone for the root, joined by `; `.
 */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** The JSON Schema dialect an SDK lists tools in: draft-07 for SDK v1, 2020-12 for v2. */
export type SchemaDialect = 'draft-7' | 'draft-2020-12';

/**
 * A schema any object passes at the least cost (no property to walk), showing clients exactly the
 * JSON Schema of `shown` in `dialect`, for `io`.
 */
function opaque(shown: z.ZodObject, io: 'input' | 'output', dialect: SchemaDialect): z.ZodObject {
  const { $schema: _, ...json } = z.toJSONSchema(shown, { target: dialect, io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return z.looseObject({}).meta(json);
}

// Each schema is advertised once per dialect, however many conversations register it.
const advertisedOf: Record<SchemaDialect, WeakMap<z.ZodObject, z.ZodObject>> = {
  'draft-7': new WeakMap(),
  'draft-2020-12': new WeakMap(),
};

/**
 * An input schema for `registerTool` that shows clients the JSON Schema of `schema` (an object
 * schema) in `dialect` (the one the SDK lists tools in; draft-07 by default) and lets every object
 * through the SDK's check at no cost: the required properties are advertised as required, unknown
 * keys as refused, and each property with the real property's JSON Schema; the tool checks the
 * arguments with `schema` itself. The same object for the same `schema` and `dialect`.
 */
export function advertised(schema: z.ZodObject, dialect: SchemaDialect = 'draft-7'): z.ZodObject {
  const known = advertisedOf[dialect].get(schema);
  if (known) return known;
  const json = z.toJSONSchema(schema, { target: dialect, io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const shape: Record<string, z.ZodType> = {};
  for (const [key, property] of Object.entries(json.properties ?? {})) {
    // Optional for the SDK's check (a missing argument is the tool's to word); `required` below
    // tells clients what is.
    shape[key] = z.unknown().optional().meta(property);
  }
  const required = json.required?.length ? { required: json.required } : {};
  const made = opaque(z.looseObject(shape).meta({ additionalProperties: false, ...required }), 'input', dialect);
  advertisedOf[dialect].set(schema, made);
  return made;
}

/**
 * An output schema for `registerTool` that shows clients the JSON Schema of `shape` (the real
 * output) in `dialect` (draft-07 by default) and costs the SDK next to nothing to check: each
 * property is `unknown`, carrying the real property's JSON Schema, the required ones required.
 * For results the tool builds from checked state, where the SDK's check can only pass.
 */
export function advertisedOutput(shape: z.ZodRawShape, dialect: SchemaDialect = 'draft-7'): z.ZodObject {
  const json = z.toJSONSchema(z.object(shape), { target: dialect, io: 'output', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const advertisedShape: Record<string, z.ZodType> = {};
  const required = new Set(json.required ?? []);
  for (const [key, property] of Object.entries(json.properties ?? {})) {
    advertisedShape[key] = required.has(key) ? z.unknown().meta(property) : z.unknown().optional().meta(property);
  }
  return opaque(z.object(advertisedShape), 'output', dialect);
}
