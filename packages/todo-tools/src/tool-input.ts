/**
 * How the tools take their input over MCP. The SDK checks arguments against a tool's input schema
 * before the tool sees them and answers a mismatch in words of its own (`MCP error -32602: Input
 * validation error: …`), outside the tool's answer. Our tools check their input themselves, so
 * that every rejection reads alike (`Error: <field>: expected …, received …`), the `todo` tool
 * answers it in its envelope, and MCP and the direct API answer every input alike.
 *
 * So a tool is registered with an *advertised* schema: what clients see in tools/list is exactly
 * the JSON Schema of the real one (types, limits, descriptions, no unknown keys), while the SDK's
 * own check lets any object through to the tool. An advertised schema is a zod schema (what v1
 * takes) whose JSON Schema (`jsonSchemaOf`) is also handed to the SDKs that take JSON (v2).
 */
import { z } from 'zod';
import { received } from './received.js';
import type { JsonSchema } from './tool-definition.js';

/**
 * The JSON Schema of any JSON value, spelled with typed branches: an empty schema `{}` accepts
 * anything but says nothing, and schema linters (the MCP Inspector's portability check) flag it.
 */
export const JSON_VALUE_SCHEMA = Object.freeze({
  description: 'Any JSON value.',
  anyOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'null' },
    { type: 'array' },
    { type: 'object' },
  ],
});

/** True for an object made by JSON.parse or a literal (not an array, a Date, a class instance). */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A record of JSON values (metadata): keys to any JSON value, its JSON Schema spelled so. Every
 * key is kept, `"__proto__"` included (zod's own record drops that key, which would acknowledge a
 * key and then lose it; Claude Code keeps it): the record is passed on as given, and whoever
 * copies it defines each key as an own property.
 */
export function jsonRecord(error?: (issue: { input?: unknown }) => string) {
  return z
    .custom<Record<string, unknown>>(isPlainRecord, {
      error: error ?? ((issue) => `expected an object of keys and values, received ${received(issue.input)}`),
    })
    .meta({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: JSON_VALUE_SCHEMA });
}

/**
 * An input schema for `registerTool` that shows clients the JSON Schema of `schema` (an object
 * schema) and lets every object through the SDK's check: each property is `unknown`, carrying the
 * real property's JSON Schema as its metadata; the required ones are advertised as required and
 * unknown keys as refused. The tool checks the arguments with `schema` itself.
 */
export function advertised(schema: z.ZodObject): z.ZodObject {
  const known = advertisedOf.get(schema);
  if (known) return known;
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
    description?: string;
  };
  const shape: Record<string, z.ZodType> = {};
  for (const [key, property] of Object.entries(json.properties ?? {})) {
    // Optional for the SDK's check (a missing argument is the tool's to word); `required` below
    // tells clients what is.
    shape[key] = z.unknown().optional().meta(property);
  }
  const required = json.required?.length ? { required: json.required } : {};
  const made = opaque(z.looseObject(shape).meta({ additionalProperties: false, ...required }), 'input');
  advertisedOf.set(schema, made);
  return made;
}

/**
 * A schema any object passes at the least cost (no property to walk), showing clients exactly the
 * JSON Schema of `shown` (as the SDK writes it: draft-7, for `io`). The SDK checks every call's
 * arguments and structured result against the schemas a tool was registered with; ours are only
 * there to be shown, so their checks should cost nothing.
 */
function opaque(shown: z.ZodObject, io: 'input' | 'output'): z.ZodObject {
  const { $schema: _, ...json } = z.toJSONSchema(shown, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return z.looseObject({}).meta(json);
}

// Each schema is advertised once, however many conversations register it.
const advertisedOf = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * An output schema for `registerTool` that shows clients the JSON Schema of `shape` (the real
 * output) and costs the SDK next to nothing to check: after every call the SDK validates the
 * structured result against the output schema, which for a whole list (the `todo` tool's details,
 * task_list) costs several times the call itself. Our results are built by our own code from
 * checked state, so the check can only pass; each property is `unknown`, carrying the real
 * property's JSON Schema. What clients see in tools/list is unchanged.
 */
export function advertisedOutput(shape: z.ZodRawShape): z.ZodObject {
  const json = z.toJSONSchema(z.object(shape), { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
    additionalProperties?: unknown;
  };
  const advertisedShape: Record<string, z.ZodType> = {};
  const required = new Set(json.required ?? []);
  for (const [key, property] of Object.entries(json.properties ?? {})) {
    advertisedShape[key] = required.has(key) ? z.unknown().meta(property) : z.unknown().optional().meta(property);
  }
  return opaque(z.object(advertisedShape), 'output');
}

/** `value` and everything in it frozen (a JSON Schema shared by every object with the same limits). */
function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}

// Each advertised schema's JSON Schema is written once.
const jsonOf = { input: new WeakMap<z.ZodObject, JsonSchema>(), output: new WeakMap<z.ZodObject, JsonSchema>() };

/**
 * The JSON Schema of an advertised schema exactly as the v1 SDK writes it in tools/list (zod's
 * draft-07 output, `$schema` included), frozen: what every SDK major shows clients.
 */
export function jsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output'): JsonSchema {
  const known = jsonOf[io].get(schema);
  if (known) return known;
  const made = deepFrozen(z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>);
  jsonOf[io].set(schema, made);
  return made;
}
