/**
 * How the tools take their input over MCP. The SDK checks arguments against a tool's input schema
 * before the tool sees them and answers a mismatch in words of its own (`MCP error -32602: Input
 * validation error: …`), outside the tool's answer. Our tools check their input themselves, so
 * that every rejection reads alike (`Error: <field>: expected …, received …`), the `todo` tool
 * answers it in its envelope, and MCP and the direct API answer every input alike.
 *
 * So a tool is registered with an *advertised* schema (`advertised`, `advertisedOutput` of
 * `@raider/kit/schemas`): what clients see in tools/list is exactly the JSON Schema of the real one
 * (types, limits, descriptions, no unknown keys), while the SDK's own check lets any object through
 * to the tool. An advertised schema is a zod schema (what v1 takes) whose JSON Schema
 * (`jsonSchemaOf`) is also handed to the SDKs that take JSON (v2).
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
